import type { RequestHandler, Response } from 'express';
import type { Route } from '../routers/route-table';
import { consoleAssets } from './console-assets';
import { CONSOLE_ASSETS, consolePage } from './console-page';

/**
 * `GET /console`: the operator console. The page and its two assets carry no data and need
 * no credential; the page asks for the backoffice token and sends it, in the Authorization
 * header only, to the backoffice API, which checks it as for any other client.
 */
export function consoleRoutes(): Route[] {
  const asset =
    (part: 'js' | 'css', type: string): RequestHandler =>
    (_req, res, next) => {
      consoleAssets().then(
        (assets) => void withPolicy(res).type(type).send(assets[part]),
        (error: unknown) => next(error),
      );
    };
  return [
    {
      method: 'get',
      path: '/console',
      handlers: [(_req, res) => void withPolicy(res).type('html').send(consolePage)],
    },
    { method: 'get', path: `${CONSOLE_ASSETS}/console.js`, handlers: [asset('js', 'js')] },
    { method: 'get', path: `${CONSOLE_ASSETS}/console.css`, handlers: [asset('css', 'css')] },
  ];
}

/**
 * Same origin only, no inline script or style, nothing framed; the page may be cached by no
 * one, so a new deployment's console is what the next load gets.
 */
function withPolicy(res: Response): Response {
  return res.set({
    'Content-Security-Policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
}

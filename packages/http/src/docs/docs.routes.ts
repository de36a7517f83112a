import type { Response } from 'express';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import type { Route } from '../routers/route-table';
import { DOCS_ASSETS, docsPage, docsScript } from './docs-page';

/** The renderer's files the page loads, and only those (the package also holds demos and maps). */
const RENDERER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'];

/**
 * `GET /docs`: the API reference, rendered in the browser by Swagger UI from the served
 * OpenAPI document. Everything the page loads comes from this service: it works offline,
 * and the Content-Security-Policy keeps it from reaching anywhere else. No credential: it
 * documents the public API.
 */
export function docsRoutes(documentUrl: string, title: string): Route[] {
  const rendererDir = getAbsoluteFSPath();
  const html = docsPage(title);
  const script = docsScript(documentUrl);
  return [
    {
      method: 'get',
      path: '/docs',
      handlers: [(_req, res) => void withPolicy(res).type('html').send(html)],
    },
    {
      method: 'get',
      path: `${DOCS_ASSETS}/docs.js`,
      handlers: [(_req, res) => void withPolicy(res).type('js').send(script)],
    },
    ...RENDERER_FILES.map((file): Route => ({
      method: 'get',
      path: `${DOCS_ASSETS}/${file}`,
      handlers: [
        (_req, res, next) =>
          withPolicy(res).sendFile(file, { root: rendererDir, maxAge: '1h' }, (error) => {
            if (error && !res.headersSent) next(error);
          }),
      ],
    })),
  ];
}

/** Same origin only; Swagger UI sets inline styles and shows images from data: URLs. */
function withPolicy(res: Response): Response {
  return res.set(
    'Content-Security-Policy',
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  );
}

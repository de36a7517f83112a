import type { Route } from './routers/route-table';

/**
 * `GET /favicon.ico`, which browsers ask for on every page of the service (the console, a JSON
 * answer opened in a tab): a round table with four seats, white on the console's blue, at 16
 * and 32 px (PNG images in an ICO container). Kept here as base64 so that the bundles carry it.
 * Its source:
 *
 *   <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
 *     <rect width="32" height="32" rx="6" fill="#3b6fd8"/>
 *     <circle cx="16" cy="16" r="7" fill="#fff"/>
 *     <circle cx="16" cy="4.5" r="2.5" fill="#fff"/> <circle cx="16" cy="27.5" r="2.5" fill="#fff"/>
 *     <circle cx="4.5" cy="16" r="2.5" fill="#fff"/> <circle cx="27.5" cy="16" r="2.5" fill="#fff"/>
 *   </svg>
 */
const FAVICON = Buffer.from(
  [
    'AAABAAIAEBAAAAEAIADPAQAAJgAAACAgAAABACAACgMAAPUBAACJUE5HDQoaCgAAAA1JSERSAAAAEAAAABAIBgAAAB/z/2EA',
    'AAGESURBVHicpJNNSwJRFIbfO45fSR+gmGVpElG5qFWLaJ1gvyAikRZu2gRBLYs2LQpqHS0i+g0hFO3aBxEhBE1KZYlBYuUn',
    '3ubcYEC9A0IPHDhzzvvOOXNnRp1Z1XxWtbIHxiMMrB8dwMHfwdlFrW7fVK1q+ZAxtgiwJlGXXcHJxojIV/af8FNpGD0xiCGm',
    'e62KfhmVTZkNu+D3WEVQLodFVcbQK2td3RRhsWSNXGrXvQpMGPPb0e1UREwMO8xkUGXFxIIH8Yi7qXZ2+YGj83ybVmzgcigI',
    '+WyiQNNazURs3o3pUafISUseY4Pj9SACXhu2T1/h7pEuJRgfcsCj93fig8jkqlja1WB6Bp0ixiUO0vD2qdDeqpgKOU3FqUwZ',
    't1oJj1kNuc+6qIkNvssNYSZIcH331WamGvUI0pKHYHNrKS6bFg46MBn4e30PzxXD3IrpGdynyyiWGiLMzITKOQqyr5Heytby',
    'gMjp2enUWyGvvgFPyu6cL9Txkq+JoFwOT7L//s6/AAAA//+MFi18AAAABklEQVQDAI/ekEZqsbuGAAAAAElFTkSuQmCCiVBO',
    'Rw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAACv0lEQVR4nNSXX0hTURzHv+d6bbplY2vSKGNimJZRPpSZYhiBYBBE',
    'PUyiIKN/VFhQQfQeRQVJEFhEfygjoYcVEeRDlJbOFxEsXAiSZG2SWWMznTVP51zabTdTz1mr4QfuODv3/P7c37m/3/ldFXGU',
    '1b3ZScjEFlBSCoKFSCYUH0Col1LF03ap4HZsmmiGD/W5kBa5Sgipwn+AUtqMqGlf2+W8flXzQh1vZL/lMkp2bLRj23qbNva8',
    '/IJbzZ+EZbUHTRu/w4YVpKzOV0sIrkOC1UvNqD+42DB3rGEAHb4RyEApditsE9yQZGWeedJcUW4mpGG2FeZHMSTxvRudNNfn',
    'j0AeWqwSkAWQpKNnBA/bg1i33KL/b+0OQRZum5Qf8VGkEAUpRpVcj7mZCtyVdhS5MpC/KEOb630/htf9Y2h6Nozw6ISMOkht',
    'QekyC07WOOGw/tnvoeB3nL0XgLdHPB2Ft6Ck0IIL+3OmNM7h9/ga7mhSHchiYT+13QlReJSyzGLPZli1ghUTd6UNq5YYi0p1',
    'iRWOeeKvC49E9RorRHTrWndVzceeTQ79xrXHQ7j5s74nUuU0meefZ9StR2Brhc2goGaD/ZcyVwIOxMlMp1sornPSCWQRldEj',
    '0PJbKW3tDutjnueyxMtMp1uPwMX7g3jaGUJ+jkk7WDp7v8Ypi2BtoXhqxWREdAsVIqc9HTdO5GrpKEKIVcPa828RGP4241oh',
    'jVzRmbt+iHK60S9kXNgBTgvbt+NXBrRyOxX8Hl/z4lUYokgfxyk9jP4Fs68fiPE3bXk8CgUdhCS8LT+wORvZ7NDh115W52Xr',
    'BIfbZltAuiBJ0tpyZluhhDRAkmS15dy20l5f4GFp8ERGMNaWf2R5z69H3qB0W86+ih5w29pLSKPkKFFoF2vUTSLCUZbq55oC',
    'SBhKw1GqHuZDw5mZis/zHwAAAP//ZEu2KAAAAAZJREFUAwAxZiG4+4ptZQAAAABJRU5ErkJggg==',
  ].join(''),
  'base64',
);

export function faviconRoutes(): Route[] {
  return [
    {
      method: 'get',
      path: '/favicon.ico',
      handlers: [
        (_req, res) =>
          void res
            .set({ 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400' })
            .send(FAVICON),
      ],
    },
  ];
}

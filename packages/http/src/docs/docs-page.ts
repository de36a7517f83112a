/** The HTML of `/docs` and the script that starts Swagger UI on the served OpenAPI document. */
export const DOCS_ASSETS = '/docs/assets';

export const docsPage = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${DOCS_ASSETS}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/docs.js"></script>
</body>
</html>
`;

/**
 * Options: no validator badge (Swagger UI would send the document to an outside validator
 * service), operation ids shown (they are the SDK's method names), the document order kept.
 */
export const docsScript = (documentUrl: string) => `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#docs',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
// The overview links operations as #/tag/operationId. Swagger UI opens such a link in a new
// tab and reads the hash only at load, so follow it in place.
document.addEventListener('click', function (event) {
  var link = event.target instanceof Element ? event.target.closest('.info a[href^="#/"]') : null;
  if (!link) return;
  event.preventDefault();
  window.location.hash = link.getAttribute('href');
});
window.addEventListener('hashchange', function () {
  window.ui.layoutActions.parseDeepLinkHash(window.location.hash);
});
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML of `/console`: a shell that loads the console's script and stylesheet. */
export const CONSOLE_ASSETS = '/console/assets';

export const consolePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Operator console</title>
<link rel="stylesheet" href="${CONSOLE_ASSETS}/console.css">
</head>
<body>
<div id="console"><noscript>The operator console needs JavaScript.</noscript></div>
<script src="${CONSOLE_ASSETS}/console.js"></script>
</body>
</html>
`;

/**
 * The frame of the built-in test payment pages (checkout, portal): a small self-contained page
 * with no scripts, so the API's CSP holds, never indexed, with the banner that says no real
 * card is charged. `css` adds the page's own rules; `main` is its content, already escaped.
 */
export function renderDevPage(options: {
  title: string;
  banner: string;
  widthRem: number;
  css: string;
  main: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} — Cohort</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>
  body { font-family: system-ui, sans-serif; background: #f5f5f7; color: #111; margin: 0; }
  main { max-width: ${options.widthRem}rem; margin: 3rem auto; background: #fff; border-radius: 12px;
    padding: 2rem; box-shadow: 0 1px 4px rgba(0,0,0,.1); }
  .banner { background: #fff4d6; border: 1px solid #e8b400; border-radius: 8px;
    padding: .75rem 1rem; font-weight: 600; }
${options.css}
</style>
</head>
<body>
<main>
  <p class="banner" role="note">${options.banner} — no real card is charged</p>
${options.main}
</main>
</body>
</html>`;
}

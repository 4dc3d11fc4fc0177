/**
 * The frame shared by the documentation pages: head (the stylesheet served by the service itself, no script, no
 * external resource), the top bar linking the reference, the error catalogue and the OpenAPI document, a side
 * navigation and the main column.
 */
import { escapeHtml } from './html.js';

/** Where the pages and their assets are served. */
export interface DocsPaths {
  /** The API reference (the docs root). */
  readonly reference: string;
  /** The error catalogue. */
  readonly errors: string;
  /** The stylesheet, with a version query so a new release is not read from a stale cache. */
  readonly stylesheet: string;
  /** The OpenAPI document. */
  readonly openapi: string;
}

/** One entry of the side navigation: a heading, or a link with an optional method badge. */
export type NavItem =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'link'; readonly href: string; readonly text: string; readonly method?: string; readonly mono?: boolean };

function navHtml(items: readonly NavItem[]): string {
  return items
    .map((item) => {
      if (item.kind === 'heading') return `<li class="nav-heading">${escapeHtml(item.text)}</li>`;
      const badge = item.method ? `<span class="method method-${escapeHtml(item.method)} mini">${escapeHtml(item.method.toUpperCase())}</span>` : '';
      return `<li><a href="${escapeHtml(item.href)}">${badge}<span class="${item.mono ? 'mono' : ''}">${escapeHtml(item.text)}</span></a></li>`;
    })
    .join('');
}

/** Options of one page. */
export interface PageOptions {
  readonly title: string;
  readonly version: string;
  readonly paths: DocsPaths;
  /** Which top-bar entry is current. */
  readonly current: 'reference' | 'errors';
  readonly nav: readonly NavItem[];
  /** The main column, already HTML. */
  readonly main: string;
}

/** A whole page. */
export function pageHtml(o: PageOptions): string {
  const tab = (key: PageOptions['current'], href: string, text: string) =>
    `<a href="${escapeHtml(href)}"${o.current === key ? ' aria-current="page"' : ''}>${text}</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(o.paths.stylesheet)}">
</head>
<body>
<header class="topbar">
<a class="brand" href="${escapeHtml(o.paths.reference)}"><span class="brand-mark" aria-hidden="true"></span>svc-api<span class="brand-sub">Street-level environmental conditions</span></a>
<span class="version">v${escapeHtml(o.version)}</span>
<nav class="tabs">${tab('reference', o.paths.reference, 'API reference')}${tab('errors', o.paths.errors, 'Errors')}<a href="${escapeHtml(o.paths.openapi)}">OpenAPI JSON</a></nav>
</header>
<div class="layout">
<nav class="sidebar" aria-label="Contents"><ul>${navHtml(o.nav)}</ul></nav>
<main class="content">
${o.main}
</main>
</div>
</body>
</html>
`;
}

/**
 * The OpenAPI document as one readable page: operations grouped by area, each with its access
 * rule, parameters, request body and responses (schemas folded under <details>). Plain HTML
 * and inline styles only: the app's content security policy allows no inline script.
 */
type TDoc = { info?: { title?: string; description?: string }; paths?: Record<string, Record<string, Record<string, unknown>>> };

const escape = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;
const fold = (label: string, value: unknown) => (value === undefined ? '' : `<details><summary>${escape(label)}</summary>${json(value)}</details>`);

export function renderApiDocs(doc: TDoc): string {
  const byArea = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    const segment = path.split('/')[2] ?? 'api';
    // The document about the document goes last, under one heading.
    const area = segment === 'openapi.json' || segment === 'docs' ? 'reference' : segment;
    for (const [method, op] of Object.entries(operations)) {
      const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema;
      const responses = Object.entries((op.responses as Record<string, { content?: Record<string, { schema?: unknown }> }> | undefined) ?? {})
        .map(([status, r]) => fold(`${status}`, r.content?.['application/json']?.schema ?? 'no body'))
        .join('');
      const section = `<section><h3><code>${escape(method.toUpperCase())} ${escape(path)}</code></h3>
        <p>Access: <strong>${escape(op['x-access'] ?? 'unknown')}</strong>${op.description ? ` · ${escape(op.description)}` : ''}</p>
        ${fold('Parameters', op.parameters)}${fold('Request body', body)}<p>Responses:</p>${responses}</section>`;
      byArea.set(area, [...(byArea.get(area) ?? []), section]);
    }
  }
  const ordered = [...byArea.entries()].sort(([a], [b]) => (a === 'reference' ? 1 : b === 'reference' ? -1 : a.localeCompare(b)));
  const contents = ordered.map(([area]) => `<a href="#${escape(area)}">${escape(area)}</a>`).join(' · ');
  const areas = ordered.map(([area, sections]) => `<h2 id="${escape(area)}">${escape(area)}</h2>${sections.join('')}`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info?.title ?? 'API')}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#0f172a}
h2{border-bottom:1px solid #cbd5e1;margin-top:2rem}section{margin:1rem 0;padding:.5rem 1rem;border:1px solid #e2e8f0;border-radius:6px}
pre{background:#f1f5f9;padding:.5rem;overflow:auto;font-size:13px}summary{cursor:pointer}</style></head>
<body><h1>${escape(doc.info?.title ?? 'API')}</h1><p>${escape(doc.info?.description ?? '')}</p>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
<nav aria-label="Areas"><p>${contents}</p></nav>${areas}</body></html>`;
}

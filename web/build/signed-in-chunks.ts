import path from 'node:path';

/** What Rolldown hands a chunk group's `name` function: a view of the module graph. */
interface TChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[]; code: string | null } | null;
}

/** lucide-react's index: one `export { default as Bell, ... } from './icons/bell.mjs'` per icon. */
const ICON_INDEX = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;
const NAMED_ICON_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g;

/** Each icon's module by every name the index exports it under. */
function iconModules(context: TChunkingContext, indexId: string): Map<string, string> {
  const modules = new Map<string, string>();
  for (const [, names, from] of (context.getModuleInfo(indexId)?.code ?? '').matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const id = path.resolve(path.dirname(indexId), from!);
    for (const name of names!.split(','))
      modules.set(
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
        id,
      );
  }
  return modules;
}

/**
 * The icons a module imports by name from lucide-react, or null if it imports the package in
 * any other way (then it counts as importing every icon).
 */
function namedIcons(code: string): string[] | null {
  const statements = [...code.matchAll(NAMED_ICON_IMPORT)];
  if ((code.match(/["']lucide-react["']/g)?.length ?? 0) !== statements.length) return null;
  return statements.flatMap(([, names]) => names!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!)).filter(Boolean);
}

/**
 * Modules a module needs before it runs: itself and its static imports, transitively. An import
 * of lucide-react's index counts as importing the icons named in it: the index imports every
 * icon, and the bundler keeps only those used.
 */
function staticClosure(context: TChunkingContext, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  let icons: Map<string, string> | undefined;
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    const info = context.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    const index = info.importedIds.find((imported) => ICON_INDEX.test(imported));
    const named = index && info.code !== null ? namedIcons(info.code) : null;
    if (!index || !named) {
      stack.push(...info.importedIds);
      continue;
    }
    icons ??= iconModules(context, index);
    stack.push(...info.importedIds.filter((imported) => imported !== index));
    // A name the index does not know: count the whole index, to be safe.
    for (const name of named) stack.push(icons.get(name) ?? index);
  }
  return seen;
}

/**
 * A chunk group (Rolldown's `codeSplitting.groups`) that puts the signed-in app's frame and its
 * dashboard in three chunks rather than forty. Left to itself the bundler made one chunk for each
 * set of lazily loaded modules sharing code: 30 for the frame and 12 more for the dashboard,
 * which a browser fetches six at a time over HTTP/1.1 (docs/decisions/front-end-delivery.md).
 *
 * - `first-reads`: what decides the dashboard's early reads (`pages/dashboard/first-reads.ts`:
 *   the permission table, the clinic's today), loaded beside the frame, not after it;
 * - `signed-in`: the rest of what the frame (`signed-in-app.tsx`) and the dashboard need;
 * - `signed-in-shared`: the part of it the sign-in page needs too (the query client, form
 *   fields, buttons), so the sign-in page does not carry the whole frame.
 * The dashboard goes with the frame: it is the first screen after signing in, and the other
 * screens use much of it (the page header, error states, appointment formats).
 *
 * Nothing the first page needs (`main.tsx` and its imports) is taken: the landing page keeps its
 * own chunks, the icons it shows included.
 */
export function signedInChunkGroups(webRoot: string) {
  const file = (relative: string) => path.resolve(webRoot, relative);
  let groupOf: Map<string, string> | undefined;

  function assign(context: TChunkingContext): Map<string, string> {
    const first = staticClosure(context, [file('src/main.tsx')]);
    const firstReads = staticClosure(context, [file('src/pages/dashboard/first-reads.ts')]);
    const signedIn = staticClosure(context, [file('src/signed-in-app.tsx'), file('src/pages/dashboard/dashboard-page.tsx')]);
    const visitor = staticClosure(context, [file('src/visitor-screens.tsx')]);
    const groups = new Map<string, string>();
    for (const id of firstReads) if (!first.has(id)) groups.set(id, 'first-reads');
    for (const id of signedIn) if (!first.has(id) && !groups.has(id)) groups.set(id, visitor.has(id) ? 'signed-in-shared' : 'signed-in');
    return groups;
  }

  return {
    debugName: 'signed-in',
    // Rolldown asks about modules one at a time; the graph is read once, on the first.
    name: (id: string, context: TChunkingContext) => (groupOf ??= assign(context)).get(id) ?? null,
    // A captured module's imports stay where they are: the first page's among them must not move.
    includeDependenciesRecursively: false,
  };
}

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Which top-level folder of lib/ imports which (folder → folders it imports from), with one example import per edge. */
export type FolderGraph = Map<string, Map<string, string>>;

/**
 * The import graph between the top-level folders of `libDir` (lib/cluster, lib/doctor, …), from every
 * .ts file's static, dynamic and type-only imports (TypeScript's own pre-processor reads them). Files
 * directly in lib/ (errors.ts, log.ts …) are leaves everyone may use and are left out.
 */
export function folderGraph(libDir: string): FolderGraph {
  const graph: FolderGraph = new Map();
  const folderOf = (file: string): string | undefined => {
    const rel = path.relative(libDir, file).split(path.sep);
    return rel.length > 1 && rel[0] !== '..' ? rel[0] : undefined;
  };
  for (const rel of fs.readdirSync(libDir, { recursive: true, encoding: 'utf8' })) {
    if (!rel.endsWith('.ts')) continue;
    const file = path.join(libDir, rel);
    const from = folderOf(file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(path.resolve(path.dirname(file), fileName));
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `lib/${rel} imports ${fileName}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/**
 * The import cycles of a folder graph: its strongly connected components of more than one folder
 * (each sorted, the list sorted), Tarjan's algorithm. Empty when the folders form layers.
 */
export function importCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The imports that close a cycle: every edge between two folders of `cycle`, as "a → b: example". */
export function cycleEdges(graph: FolderGraph, cycle: string[]): string[] {
  return cycle.flatMap((a) => [...(graph.get(a) ?? new Map<string, string>())].filter(([b]) => cycle.includes(b)).map(([b, ex]) => `${a} → ${b}: ${ex}`));
}

/**
 * What a V8 heap snapshot holds per module: `node --import tsx bench/heap-modules.ts FILE.heapsnapshot [rows]`
 * (a snapshot of the idle server: `npm run bench -- … --heap-snapshot`).
 *
 * Every object is charged to the module that owns the nearest object above it in the dominator tree (the object
 * itself included): a script (its source, line ends), a function's shared info (bytecode, feedback), a closure or a
 * context (module-level variables, a closure's captured state). What no module's object dominates (held by the
 * module map, the global object or several modules at once) is "(shared)". Generated code without a file (Fastify's
 * serializers, Ajv's validators: `new Function`) is charged to "(generated) …" by the generator's signature.
 * Prints packages (node_modules/<name>, dist|src/<folder>, node:…) by retained size, then the largest files.
 *
 * A snapshot parser and dominator tree of its own: memlab, the maintained one, depends on puppeteer (a browser).
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Graph {
  count: number;
  type: string[];
  name: string[];
  selfSize: Float64Array;
  /** edges of node i: edgeTo[edgeStart[i] .. edgeStart[i + 1]) */
  edgeStart: Uint32Array;
  edgeTo: Uint32Array;
  edgeName: string[];
  edgeWeak: Uint8Array;
}

function readGraph(file: string): Graph {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { meta } = raw.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [typeAt, nameAt, sizeAt, countAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [eTypeAt, eNameAt, eToAt] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const count = raw.nodes.length / nf;
  const graph: Graph = {
    count,
    type: new Array(count),
    name: new Array(count),
    selfSize: new Float64Array(count),
    edgeStart: new Uint32Array(count + 1),
    edgeTo: new Uint32Array(raw.edges.length / ef),
    edgeName: new Array(raw.edges.length / ef),
    edgeWeak: new Uint8Array(raw.edges.length / ef),
  };
  let edge = 0;
  for (let i = 0; i < count; i++) {
    const at = i * nf;
    graph.type[i] = nodeTypes[raw.nodes[at + typeAt]];
    graph.name[i] = raw.strings[raw.nodes[at + nameAt]];
    graph.selfSize[i] = raw.nodes[at + sizeAt];
    graph.edgeStart[i] = edge;
    const edges = raw.nodes[at + countAt];
    for (let k = 0; k < edges; k++, edge++) {
      const type = edgeTypes[raw.edges[edge * ef + eTypeAt]];
      const nameOrIndex = raw.edges[edge * ef + eNameAt];
      graph.edgeTo[edge] = raw.edges[edge * ef + eToAt] / nf;
      graph.edgeName[edge] = type === 'element' || type === 'hidden' ? String(nameOrIndex) : raw.strings[nameOrIndex];
      graph.edgeWeak[edge] = type === 'weak' ? 1 : 0;
    }
  }
  graph.edgeStart[count] = edge;
  return graph;
}

/** Immediate dominators from node 0 (the snapshot's root), weak edges ignored (Cooper, Harvey and Kennedy). */
function dominators(g: Graph): Int32Array {
  const order: number[] = [];
  const postIndex = new Int32Array(g.count).fill(-1);
  const visited = new Uint8Array(g.count);
  const stack: [number, number][] = [[0, g.edgeStart[0]]];
  visited[0] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [node, next] = top;
    if (next < g.edgeStart[node + 1]) {
      top[1]++;
      const to = g.edgeTo[next];
      if (!g.edgeWeak[next] && !visited[to]) {
        visited[to] = 1;
        stack.push([to, g.edgeStart[to]]);
      }
    } else {
      postIndex[node] = order.length;
      order.push(node);
      stack.pop();
    }
  }
  const preds: number[][] = Array.from({ length: g.count }, () => []);
  for (let from = 0; from < g.count; from++) {
    if (postIndex[from] < 0) continue;
    for (let e = g.edgeStart[from]; e < g.edgeStart[from + 1]; e++) if (!g.edgeWeak[e]) preds[g.edgeTo[e]].push(from);
  }
  const idom = new Int32Array(g.count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (postIndex[a] < postIndex[b]) a = idom[a];
      while (postIndex[b] < postIndex[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = order.length - 2; i >= 0; i--) {
      const node = order[i];
      let dom = -1;
      for (const p of preds[node]) if (idom[p] >= 0) dom = dom < 0 ? p : intersect(p, dom);
      if (dom >= 0 && idom[node] !== dom) {
        idom[node] = dom;
        changed = true;
      }
    }
  }
  return idom;
}

function edgeTarget(g: Graph, node: number, name: string): number {
  for (let e = g.edgeStart[node]; e < g.edgeStart[node + 1]; e++) if (g.edgeName[e] === name) return g.edgeTo[e];
  return -1;
}

/** The module a script belongs to: its URL, or the generator's signature for code made by `new Function`. */
function scriptLabel(g: Graph, script: number): string {
  if (g.name[script]) return g.name[script];
  const source = edgeTarget(g, script, 'source');
  const text = source >= 0 ? g.name[source] : '';
  if (text.startsWith('(function anonymous(validator,serializer')) return '(generated) fast-json-stringify serializers';
  if (text.startsWith('(function anonymous(self,scope')) return '(generated) ajv validators';
  return '(generated) other';
}

/** Owners: scripts, functions' shared infos, closures and the contexts closures hold, each by its script. */
function owners(g: Graph): (string | undefined)[] {
  const owner: (string | undefined)[] = new Array(g.count);
  const scriptOf = (shared: number) => {
    const script = edgeTarget(g, shared, 'script_or_debug_info');
    return script >= 0 && edgeTarget(g, script, 'source') >= 0 ? scriptLabel(g, script) : undefined;
  };
  for (let i = 0; i < g.count; i++) {
    if (g.type[i] !== 'code') continue;
    if (edgeTarget(g, i, 'source') >= 0) owner[i] = scriptLabel(g, i);
    else owner[i] = scriptOf(i);
  }
  for (let i = 0; i < g.count; i++) {
    if (g.type[i] !== 'closure') continue;
    const shared = edgeTarget(g, i, 'shared');
    const label = shared >= 0 ? scriptOf(shared) : undefined;
    if (!label) continue;
    owner[i] = label;
    owner[shared] ??= label;
    const context = edgeTarget(g, i, 'context');
    if (context >= 0) owner[context] ??= label;
  }
  return owner;
}

function packageOf(label: string): string {
  if (label.startsWith('(')) return label;
  if (label.startsWith('node:')) return 'node: (built-in modules)';
  const path = label.replace(/^file:\/\//, '');
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1];
  const own = /\/(?:dist\/)?src\/([^/]+)\//.exec(path);
  return own ? `src/${own[1]}` : path;
}

export function heapByModule(file: string): { packages: Map<string, number>; files: Map<string, number>; total: number } {
  const g = readGraph(file);
  const idom = dominators(g);
  const owner = owners(g);
  const charged: (string | undefined)[] = new Array(g.count);
  const chargeOf = (node: number): string => {
    const path: number[] = [];
    let at = node;
    while (charged[at] === undefined && owner[at] === undefined && at !== 0 && idom[at] >= 0) {
      path.push(at);
      at = idom[at];
    }
    const label = charged[at] ?? owner[at] ?? '(shared)';
    for (const p of path) charged[p] = label;
    charged[at] = label;
    return label;
  };
  const files = new Map<string, number>();
  let total = 0;
  for (let i = 1; i < g.count; i++) {
    if (idom[i] < 0) continue;
    const label = chargeOf(i);
    files.set(label, (files.get(label) ?? 0) + g.selfSize[i]);
    total += g.selfSize[i];
  }
  const packages = new Map<string, number>();
  for (const [label, size] of files) packages.set(packageOf(label), (packages.get(packageOf(label)) ?? 0) + size);
  return { packages, files, total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, rows = '40'] = process.argv.slice(2);
  if (!file) throw new Error('usage: node --import tsx bench/heap-modules.ts FILE.heapsnapshot [rows]');
  const { packages, files, total } = heapByModule(file);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2).padStart(7);
  const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(rows));
  console.log(`${mb(total)} MB reachable in all\n\nby package (MB):`);
  for (const [name, size] of top(packages)) console.log(`${mb(size)}  ${name}`);
  console.log('\nby file (MB):');
  for (const [name, size] of top(files)) console.log(`${mb(size)}  ${name}`);
}

import { parseArgs } from 'node:util';
import { isPrimaryOfWorkers, superviseWorkers } from './cluster.js';
import { loadConfig } from './config.js';

// Only what every process needs is imported up front: the primary of `serve --workers N` never loads
// the service (it only supervises), and each command loads what it runs.

const OPTIONS = {
  slug: { type: 'string' },
  name: { type: 'string' },
  'admin-email': { type: 'string' },
  'admin-password': { type: 'string' },
  store: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  scopes: { type: 'string' },
  id: { type: 'string' },
  workers: { type: 'string' },
  resource: { type: 'string' },
  out: { type: 'string' },
  'updated-since': { type: 'string' },
} as const;

async function runServe(workers: string | undefined): Promise<void> {
  // --workers is STOREFRONT_WORKERS given on the command line (validated, and named, as that).
  const config = loadConfig(workers === undefined ? process.env : { ...process.env, STOREFRONT_WORKERS: workers });
  if (isPrimaryOfWorkers(config)) superviseWorkers(config);
  else await (await import('./server.js')).serve(config);
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (positionals[0] === 'import' || positionals[0] === 'export') {
      // over HTTP against a running server (src/cli): no config, no database
      return await (await import('./cli/index.js')).runHttpCommand(positionals[0], values, positionals.slice(1));
    }
    const command = positionals.slice(0, positionals[0] === 'serve' || positionals[0] === 'migrate' ? 1 : 2).join(' ') || 'serve';
    if (command === 'serve') {
      await runServe(values.workers);
      return -1;
    }
    const { runDataCommand } = await import('./cli-commands.js');
    process.stdout.write(`${JSON.stringify(await runDataCommand(command, values))}\n`);
    return 0;
  } catch (error) {
    const { describeError, UsageError } = await import('./cli-commands.js');
    process.stderr.write(`storefront: ${describeError(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);

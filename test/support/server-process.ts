import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** `storefront serve` as a child process, as an operator runs it: spoken to over HTTP, stopped by signals. */

const ROOT = new URL('../..', import.meta.url).pathname;

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  base: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** every line the process wrote to stdout so far (JSON log lines) */
  output(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts the real entry point (bin/storefront.mjs: the compiled server when `npm run build` made it from these
 * sources, else the sources through tsx; CI builds before its tests, and a compiled start costs half the CPU
 * of one through tsx) on a system-chosen port and resolves once its
 * "storefront listening" line names the address. `env` is added to a clean environment (no inherited
 * STOREFRONT_*, DATABASE_URL or PORT); `args` follow `serve` (e.g. `--workers 2`). `asExecutable` runs
 * bin/storefront.mjs itself, so Node starts with the flags of its `#!` line as `npm start` gives them (a test
 * of the server's memory measures what users run).
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  args: string[] = [],
  asExecutable = false,
): Promise<ServerProcess> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|REDIS_URL|STOREFRONT_|HOST$|PORT$|LOG_LEVEL$)/.test(key)),
  );
  const [command, commandArgs] = asExecutable ? [`${ROOT}bin/storefront.mjs`, []] : [process.execPath, ['bin/storefront.mjs']];
  const child = spawn(command, [...commandArgs, 'serve', ...args], {
    cwd: ROOT,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', STOREFRONT_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // not left running when the test that started it gives up on it
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    const onData = () => {
      const match = /"url":"(http:\/\/[^"]+)\/api\/v1"/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${stdout}${stderr}`));
    });
  });
  return { base, child, exited, output: () => stdout };
}

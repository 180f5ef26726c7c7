import { spawn } from 'node:child_process';

/** What a run of the CLI gave: its exit code and its whole stdout and stderr. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real CLI in its own process (bin/storefront.mjs, as a user runs it): stdout and stderr are pipes, so
 * there is no TTY and progress is JSON lines. `input` is written to its stdin (which is closed either way, so
 * a command reading `-` ends).
 */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/storefront.mjs', ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

import { CliError } from './cli-error.js';
import type { OptionValues } from './command-table.js';
import { EXPORT_FORMATS, EXPORT_RESOURCES, runExport } from './export.js';
import { apiFromEnv } from './http.js';
import { IMPORT_FORMATS, IMPORT_RESOURCES, runImport } from './import.js';

export const HTTP_USAGE = `  import --resource R [--format F] [--dry-run] FILE   upload an NDJSON or CSV file to a server (STOREFRONT_URL, STOREFRONT_API_KEY) and follow the job
  export --resource R [--format F] [--out FILE] [--updated-since T]   stream a resource of a server as NDJSON or a platform's CSV`;

function resourceOf(values: OptionValues, allowed: string[]): string {
  const resource = values.resource;
  if (typeof resource !== 'string' || !allowed.includes(resource)) {
    throw new CliError(`--resource must be one of ${allowed.join(', ')}\nusage:\n${HTTP_USAGE}`, 2);
  }
  return resource;
}

const text = (value: string | boolean | undefined) => (typeof value === 'string' && value !== '' ? value : null);

function formatOf(values: OptionValues, allowed: string[]): string | null {
  const format = text(values.format);
  if (format !== null && !allowed.includes(format)) {
    throw new CliError(`--format must be one of ${allowed.join(', ')}\nusage:\n${HTTP_USAGE}`, 2);
  }
  return format;
}

/**
 * `storefront import|export …`: prints its summary as JSON on stdout (on stderr when stdout carries the
 * export), errors as one line on stderr; returns the exit code (0 ok, 1 failed, 2 usage).
 */
export async function runHttpCommand(command: 'import' | 'export', values: OptionValues, args: string[]): Promise<number> {
  try {
    if (command === 'import') {
      const resource = resourceOf(values, IMPORT_RESOURCES);
      const format = formatOf(values, IMPORT_FORMATS);
      if (args.length !== 1) throw new CliError(`give one NDJSON or CSV file\nusage:\n${HTTP_USAGE}`, 2);
      const dryRun = values['dry-run'] === true;
      const { summary, exitCode } = await runImport(apiFromEnv(), { resource, file: args[0], format, dryRun });
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      return exitCode;
    }
    const resource = resourceOf(values, EXPORT_RESOURCES);
    const format = formatOf(values, EXPORT_FORMATS);
    const out = text(values.out);
    const summary = await runExport(apiFromEnv(), { resource, format, out, updatedSince: text(values['updated-since']) });
    (out ? process.stdout : process.stderr).write(`${JSON.stringify(summary)}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof CliError;
    process.stderr.write(`storefront: ${known ? error.message : `unexpected error: ${(error as Error).message}`}\n`);
    return known ? error.exitCode : 1;
  }
}

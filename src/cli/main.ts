import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import { CliError } from './cli-error.js';
import { type CliCommand, COMMANDS, type OptionValues } from './command-table.js';

// The CLI's entry (bin/storefront.mjs runs it): parsing, help and dispatch for the command table of
// command-table.ts. Only what every process needs is imported up front: each command loads what it runs.

/** A command line we cannot run: exit 2 with a hint. */
const usageError = (message: string) => new CliError(message, 2);

const DATABASE_ENV = ['DATABASE_URL (default: embedded PGlite)', 'STOREFRONT_DATA_DIR (default: ./data)'];

function placeholder(name: string, option: CliCommand['options'][string]): string {
  return option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'VALUE'}`;
}

function usageLine(command: CliCommand): string {
  const options = Object.entries(command.options).map(([name, option]) => {
    const text = placeholder(name, option);
    return option.required ? text : `[${text}]`;
  });
  return ['storefront', command.name, ...options, ...(command.positionals ? [command.positionals] : [])].join(' ');
}

function commandHelp(command: CliCommand): string {
  const lines = [`usage: ${usageLine(command)}`, '', command.summary + (command.notes ? `. ${command.notes}` : '')];
  const options = Object.entries(command.options);
  const width = Math.max(12, ...options.map(([name, option]) => placeholder(name, option).length));
  lines.push('', 'options:');
  for (const [name, option] of options) lines.push(`  ${placeholder(name, option).padEnd(width)}  ${option.description}`);
  lines.push(`  ${'--help, -h'.padEnd(width)}  show this help`);
  lines.push('', 'environment:', ...[...(command.overHttp ? [] : DATABASE_ENV), ...(command.env ?? [])].map((name) => `  ${name}`));
  if (!command.keepsRunning && !command.ownsOutput)
    lines.push('', 'Prints JSON on stdout; errors are one line on stderr (exit 1; 2 for a bad command line).');
  return lines.join('\n');
}

function generalHelp(commands = COMMANDS): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'usage: storefront <command> [options]',
    '',
    'commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    "Run 'storefront <command> --help' (or 'storefront help <command>') for a command's options.",
    'Configuration is environment variables (README, "Configuration"); the data commands use DATABASE_URL',
    'or the embedded engine in STOREFRONT_DATA_DIR (stop the server first: the data dir belongs to one process).',
  ].join('\n');
}

/** The longest run of leading words that names a command: `stores list --x` → `stores list`. */
function splitCommand(argv: string[]): { words: string[]; command: CliCommand | undefined; rest: string[] } {
  const firstOption = argv.findIndex((arg) => arg.startsWith('-'));
  const words = (firstOption === -1 ? argv : argv.slice(0, firstOption)).slice(0, 2);
  for (let count = words.length; count > 0; count--) {
    const command = COMMANDS.find((candidate) => candidate.name === words.slice(0, count).join(' '));
    if (command) return { words, command, rest: argv.slice(count) };
  }
  return { words, command: undefined, rest: argv.slice(words.length) };
}

/** Help for `words` (a command, a group like `stores`, or nothing); null when they name nothing. */
function helpFor(words: string[]): string | null {
  if (words.length === 0) return generalHelp();
  const name = words.join(' ');
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command) return commandHelp(command);
  const group = COMMANDS.filter((candidate) => candidate.name.startsWith(`${words[0]} `));
  return group.length && words.length === 1 ? generalHelp(group) : null;
}

function parseOptions(command: CliCommand, args: string[]): { values: OptionValues; positionals: string[] } {
  const hint = `run 'storefront ${command.name} --help'`;
  let values: OptionValues;
  let positionals: string[];
  try {
    const options = { ...command.options, help: { type: 'boolean' as const, short: 'h' } };
    ({ values, positionals } = parseArgs({ args, options, allowPositionals: command.positionals !== undefined, strict: true }));
  } catch (error) {
    throw usageError(`${(error as Error).message.split(/\.\s|\n/, 1)[0]} for '${command.name}'; ${hint}`);
  }
  if (values.help) return { values, positionals };
  for (const [name, option] of Object.entries(command.options)) {
    const value = values[name];
    if (option.required && (typeof value !== 'string' || value === '')) throw usageError(`missing --${name}; usage: ${usageLine(command)}`);
  }
  return { values, positionals };
}

async function run(argv: string[]): Promise<number> {
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    const help = helpFor(argv.slice(1).filter((arg) => !arg.startsWith('-')));
    if (help === null) throw usageError(`unknown command '${argv.slice(1).join(' ')}'; run 'storefront --help'`);
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const { words, command, rest } = argv.length === 0 ? { words: [], command: COMMANDS[0], rest: [] } : splitCommand(argv);
  if (!command) {
    const group = helpFor(words);
    if (group !== null && (rest.includes('--help') || rest.includes('-h'))) {
      process.stdout.write(`${group}\n`);
      return 0;
    }
    // `storefront --workers 2` is `serve --workers 2`, as before the command table.
    if (words.length === 0) return runCommand(COMMANDS[0], rest);
    const known = group === null ? `unknown command '${words.join(' ')}'` : `'${words.join(' ')}' needs a subcommand`;
    throw usageError(`${known}; run 'storefront --help'`);
  }
  return runCommand(command, rest);
}

async function runCommand(command: CliCommand, args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(command, args);
  if (values.help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  const output = await command.run(values, positionals);
  if (command.ownsOutput) return output as number;
  if (command.keepsRunning) return -1;
  if (output !== undefined) process.stdout.write(`${JSON.stringify(output)}\n`);
  return 0;
}

/** Runs one command line; the exit code, or -1 when the process keeps running (serve). */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`storefront: ${error.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof ConfigError ? error.message : (await import('./data-commands.js')).describeError(error);
    process.stderr.write(`storefront: ${message}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) {
  // process.exit does not wait for writes still queued on a pipe: a large answer (a list's 1,000 prices, ~150 KB)
  // was cut short. An empty write's callback runs once everything written before it has gone to the pipe.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}

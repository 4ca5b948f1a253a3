// The shape every command shares: options parsed by node:util's parseArgs (unknown options refused),
// --help answered with the usage text and nothing else done, and a usage error said with the usage text
// and exit status 64 (exit-codes.ts EXIT.usage).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EXIT } from './exit-codes.ts';

type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string; default?: string | boolean | string[] | boolean[] }>;

/** The opening comment of the file at `url` (a command's import.meta.url), for a command whose usage it is. */
export function openingComment(url: string): string {
  const lines = readFileSync(new URL(url), 'utf8').split('\n');
  return lines
    .slice(
      0,
      lines.findIndex((l) => !l.startsWith('//')),
    )
    .join('\n')
    .replace(/^\/\/ ?/gm, '');
}

/** Report a usage error the way every command does, and exit 64. */
export function usageError(name: string, help: string, message: string): never {
  console.error(`${name}: ${message}\n\n${help}`);
  process.exit(EXIT.usage);
}

/**
 * The command line of command `name`: its values and positionals, and `fail` for a usage error found later.
 * `--help` (or -h) prints `help` and exits 0 before anything else happens.
 */
export function commandLine<const O extends Options>(name: string, help: string, options: O, args: string[] = process.argv.slice(2)) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  const fail = (message: string): never => usageError(name, help, message);
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options });
    return { values, positionals, fail };
  } catch (e) {
    return fail((e as Error).message);
  }
}

/**
 * The command line of a try script (runner/<benchmark>/try.ts: a benchmark's tasks once per cached build,
 * outside the run loop), whose usage is its opening comment: the versions, `--mode quick|full` (default
 * quick) and `--only SUBSTRING`.
 */
export function tryCommandLine(url: string): { versions: string[]; mode: 'quick' | 'full'; only?: string } {
  const name = new URL(url).pathname.split('/').slice(-3).join('/');
  const { values, positionals, fail } = commandLine(name, openingComment(url), { mode: { type: 'string', default: 'quick' }, only: { type: 'string' } });
  const mode = values.mode;
  if (mode !== 'quick' && mode !== 'full') return fail(`--mode must be quick or full, not ${mode}`);
  if (!positionals.length) return fail('name at least one version');
  return { versions: positionals, mode, only: values.only };
}

/**
 * Tells a server its port without configuration: the framework the command runs (directly, or
 * through a package.json script) and its row in the port-passing table decide the flags and the
 * environment. Where nothing says how, the answer is one clear line instead of a guess.
 */
import { basename } from 'node:path';
import type { FrameworkId } from '../../../shared/ready';
import { detectFramework, FRAMEWORK_NAMES, PACKAGE_RUNNERS, readFirstPackageJson, scriptNameOf } from '../ready';
import { portPassingRuleFor, type PortPassingRule } from './portPassing';

interface PortPassingInput {
  argv: readonly string[];
  cwd: string;
  projectDir: string;
  env?: Readonly<Record<string, string>>;
  /** `framework` from switchboard.json, which wins over detection. */
  configured?: FrameworkId;
}

type PortPassing =
  | { kind: 'passed'; argv: string[]; env: Record<string, string>; framework: FrameworkId; defaultPort: number }
  | { kind: 'unknown'; problem: string };

const SHELLS = new Set(['sh', 'bash', 'zsh']);
/** Shell syntax that makes a command line more than one command: appended flags would go to the last. */
const COMPOUND_COMMAND = /&&|\|\||[;|&\n`]|\$\(/;

/** The entry's command told to listen on `port`, or why that cannot be done. */
export function passPort(input: PortPassingInput, port: number): PortPassing {
  const detection = detectFramework({ argv: input.argv, cwd: input.cwd, projectDir: input.projectDir, configured: input.configured });
  const rule = detection.isFromCommand ? portPassingRuleFor(detection.framework) : undefined;
  if (!rule) return { kind: 'unknown', problem: unknownFrameworkProblem(detection.framework, detection.isFromCommand) };
  const env = { ...input.env, ...fill(rule.env ?? {}, port) };
  const args = (rule.args ?? []).map((a) => a.replaceAll('{port}', String(port)));
  if (args.length === 0) return { kind: 'passed', argv: [...input.argv], env, framework: rule.framework, defaultPort: rule.defaultPort };
  const argv = withPortArgs(input, rule, args, port);
  if (typeof argv === 'string') return { kind: 'unknown', problem: argv };
  return { kind: 'passed', argv, env, framework: rule.framework, defaultPort: rule.defaultPort };
}

/** The port a framework takes when told nothing (the main checkout's zero-config entries). */
export function defaultPortOf(input: PortPassingInput): number | undefined {
  const detection = detectFramework({ argv: input.argv, cwd: input.cwd, projectDir: input.projectDir, configured: input.configured });
  return detection.isFromCommand ? portPassingRuleFor(detection.framework)?.defaultPort : undefined;
}

function unknownFrameworkProblem(framework: FrameworkId, isFromCommand: boolean): string {
  const what = isFromCommand ? `${FRAMEWORK_NAMES[framework]} has no known way to be told its port` : 'no known dev server in this command';
  return `${what}: put \${port} in its args or env so each worktree gets its own port`;
}

/** argv with the port flags in place, or a problem line. */
function withPortArgs(input: PortPassingInput, rule: PortPassingRule, args: string[], port: number): string[] | string {
  const [program = '', ...rest] = input.argv;
  const name = basename(program);
  if (SHELLS.has(name) && rest[0] === '-c' && rest[1] !== undefined) {
    if (COMPOUND_COMMAND.test(rest[1]))
      return `its command line runs several commands: put \${port} where ${FRAMEWORK_NAMES[rule.framework]} takes it`;
    const inner = withPortArgs({ ...input, argv: rest[1].trim().split(/\s+/) }, rule, args, port);
    if (typeof inner === 'string') return inner;
    return [program, '-c', inner.map(shellWord).join(' '), ...rest.slice(2)];
  }
  const script = PACKAGE_RUNNERS.has(name) ? scriptNameOf(name, rest) : undefined;
  const scriptText = script ? readFirstPackageJson([input.cwd, input.projectDir])?.scripts?.[script] : undefined;
  if (script && scriptText !== undefined) return throughScript(name, input.argv, script, scriptText, rule, args);
  return onCommandLine(input.argv, rule, args, port);
}

/** `npm run dev` → `npm run dev -- --port N`: the runner appends what follows to the script. */
function throughScript(
  runner: string,
  argv: readonly string[],
  script: string,
  scriptText: string,
  rule: PortPassingRule,
  args: string[],
): string[] | string {
  if (COMPOUND_COMMAND.test(scriptText))
    return `package.json script "${script}" runs several commands: put \${port} where ${FRAMEWORK_NAMES[rule.framework]} takes it`;
  const fixed = portFlagIn(scriptText.split(/\s+/), rule);
  if (fixed) return `package.json script "${script}" fixes its port (${fixed}): put \${port} in the entry's args instead`;
  // npm hands the script only what follows `--`; pnpm, yarn and bun pass the rest as is.
  const separator = runner === 'npm' && !argv.includes('--') ? ['--'] : [];
  return [...argv, ...separator, ...args];
}

/** A direct command: an existing port flag gets the new value, otherwise the flags are appended. */
function onCommandLine(argv: readonly string[], rule: PortPassingRule, args: string[], port: number): string[] {
  const out = [...argv];
  const at = out.findIndex((word) => rule.portFlags.some((f) => word === f || word.startsWith(`${f}=`)));
  if (at >= 0) {
    const word = out[at];
    if (rule.portFlags.includes(word) && at + 1 < out.length) out[at + 1] = String(port);
    else out[at] = `${word.split('=')[0]}=${port}`;
    return [...out, ...extraArgs(rule).filter((a) => !out.includes(a))];
  }
  if (rule.framework === 'django') return withDjangoAddress(out, args);
  return [...out, ...args];
}

/** The rule's flags besides the port itself (Vite's `--strictPort`). */
function extraArgs(rule: PortPassingRule): string[] {
  const args = rule.args ?? [];
  return args.filter((a, i) => !a.includes('{port}') && !rule.portFlags.includes(a) && !rule.portFlags.includes(args[i - 1] ?? ''));
}

/** `runserver [addrport]`: an address already given is replaced, since a second one is an error. */
function withDjangoAddress(argv: string[], args: string[]): string[] {
  const at = argv.findIndex((a) => a === 'runserver');
  const next = argv[at + 1];
  if (at >= 0 && next !== undefined && /^(?:\S+:)?\d+$/.test(next)) return [...argv.slice(0, at + 1), ...args, ...argv.slice(at + 2)];
  return [...argv, ...args];
}

function portFlagIn(words: readonly string[], rule: PortPassingRule): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const flag = rule.portFlags.find((f) => word === f || word.startsWith(`${f}=`));
    if (flag) return word === flag ? `${flag} ${words[i + 1] ?? ''}`.trim() : word;
  }
  return undefined;
}

function fill(values: Readonly<Record<string, string>>, port: number): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replaceAll('{port}', String(port))]));
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Status rules are data: one file per agent under rules/, validated here when loaded (herdr's
 * `validate_manifest`). Unknown fields and region names are refused, sizes are capped, and a rule
 * cannot imply a detail that does not belong to its primary. Every error names the rule id.
 */
import { z } from 'zod';
import { DETAILS_BY_PRIMARY, isBlockedDetail, type AgentDetail } from '../../../shared/status';
import { isRegionError, isReportRegion, parseRegion } from './regions';

/** A rule set larger than this is a mistake, and would cost more than a frame to evaluate. */
const MAX_RULES_PER_SET = 100;
/** Matcher nesting (all/any/not) deeper than this is unreadable; herdr caps gate depth too. */
const MAX_MATCHER_DEPTH = 4;
/** Longest string or regex source in a matcher; protects the per-update cost. */
const MAX_PATTERN_CHARS = 600;
/** Longest sample; samples are cropped screens, not whole sessions. */
const MAX_SAMPLE_CHARS = 8_000;

/** States a screen rule can imply; starting/stuck/dead come from timing and process facts. */
const RULE_PRIMARIES = ['idle', 'active', 'waiting'] as const;
export type RulePrimary = (typeof RULE_PRIMARIES)[number];

type Pattern = RegExp | string;

interface MatcherInput {
  /** Read another region for this node and its children (default: the rule's region). */
  region?: string;
  /** Every string occurs in the region text. */
  contains?: string | string[];
  /** Every regex matches the region text (rows joined with "\n"). */
  regex?: Pattern | Pattern[];
  /** Every regex matches at least one row of the region. */
  line?: Pattern | Pattern[];
  all?: MatcherInput[];
  any?: MatcherInput[];
  not?: MatcherInput;
}

/**
 * Where a waiting rule's prompt sits on the screen: the rows the attention inbox shows as what the
 * agent asks. The prompt is found at the last row matching `anchor` (prompts are drawn at the
 * bottom, below the transcript that may quote them); `within` takes the run of rows around it
 * that share a frame, `top` / `bottom` the nearest rows above / below it that start / end it.
 */
interface PromptLayoutInput {
  /** A row of the prompt itself: its question or its first option. */
  anchor: Pattern;
  /** Every row of the prompt matches it (a box's side, a bar): the run around the anchor. */
  within?: Pattern;
  /** The prompt's first row: the nearest row at or above the anchor matching it (default: the anchor). */
  top?: Pattern;
  /** The prompt's last row: the nearest row at or below the anchor matching it (default: the last row). */
  bottom?: Pattern;
  /** Rows of the prompt that are key hints or footers, not what it asks. */
  omit?: Pattern[];
}

export interface PromptLayout {
  anchor: RegExp;
  within?: RegExp;
  top?: RegExp;
  bottom?: RegExp;
  omit: RegExp[];
}

interface RuleImplies {
  primary: RulePrimary;
  /** null only for `active`: "busy, detail unknown" (the tracker keeps the last active detail). */
  detail: AgentDetail;
}

export interface StatusRuleInput {
  /** Unique within the agent's file; reasons read `<agent>/<id>`. */
  id: string;
  /** Highest matching priority wins. */
  priority: number;
  implies: RuleImplies;
  region: string;
  match: MatcherInput;
  /** A real, cropped screen (or title, for osc_title rules) that triggers the rule. */
  sample: string;
  /** The window title shown with a screen rule's sample, for a rule that also reads the title (a node with region osc_title). */
  sampleTitle?: string;
  /** The program's own state report (OSC 7501) shown with a screen rule's sample and look-alikes, for a rule that also reads it (a node with region osc_state). */
  sampleState?: string;
  /** Screens that look alike but must not trigger the rule. */
  lookalikes?: Array<{ sample: string; why: string }>;
  /** Tool, version and recording (or "from knowledge, unverified"). */
  source: string;
  /** Idle rules only: the screen proves the turn is over (e.g. the composer with its idle hint and
   *  no spinner), so idle shows after the short strong-idle debounce instead of the full one. */
  strongIdle?: boolean;
  /** Waiting rules on screen: where the prompt's own rows are (the inbox's "what it asks"). */
  prompt?: PromptLayoutInput;
  /**
   * Blocked and retrying rules: the CLI's own line in the rule's region, a regex with named groups
   * `message` (what the status carries; default the whole match), `reset` (the limit's reset time
   * as printed), `attempt` and `max` (the retry counter). The last match in the region counts.
   */
  report?: Pattern;
  /**
   * Blocked rules only: the screen shows the CLI still trying by itself, with no end (Codex's
   * "Reconnecting... waiting for network"). A person is told, but no continue is typed into it.
   */
  retriesByItself?: boolean;
}

interface NormalizerInput {
  /** What it removes, e.g. "spinner glyph at the start of the status line". */
  id: string;
  pattern: Pattern;
  replace: string;
}

export interface RuleSetInput {
  agent: string;
  /** CLI version(s) the rules were written against. */
  version: string;
  rules: StatusRuleInput[];
  /** Applied before comparing screens for progress (stuck detection): animation frames,
   *  elapsed-time and token counters must not count as progress. */
  progressNormalizers?: NormalizerInput[];
}

export interface CompiledMatcher {
  region?: string;
  contains: string[];
  regex: RegExp[];
  line: RegExp[];
  all: CompiledMatcher[];
  any: CompiledMatcher[];
  not?: CompiledMatcher;
}

export interface StatusRule extends Omit<StatusRuleInput, 'match' | 'prompt' | 'report'> {
  match: CompiledMatcher;
  prompt?: PromptLayout;
  report?: RegExp;
  /** `<agent>/<id>`. */
  key: string;
}

export interface ProgressNormalizer {
  id: string;
  pattern: RegExp;
  replace: string;
}

export interface RuleSet {
  agent: string;
  version: string;
  /** Sorted by priority, highest first. */
  rules: StatusRule[];
  progressNormalizers: ProgressNormalizer[];
}

const patternSchema = z.union([
  z.string().min(1).max(MAX_PATTERN_CHARS),
  z.instanceof(RegExp).refine((r) => r.source.length <= MAX_PATTERN_CHARS, `regex longer than ${MAX_PATTERN_CHARS} chars`),
]);
const oneOrMany = <T extends z.ZodTypeAny>(s: T) => z.union([s, z.array(s).min(1).max(20)]);

const regionSchema = z.string().superRefine((spec, ctx) => {
  const parsed = parseRegion(spec);
  if (isRegionError(parsed)) ctx.addIssue({ code: 'custom', message: parsed.error });
});

const matcherSchema: z.ZodType<MatcherInput> = z.lazy(() =>
  z
    .strictObject({
      region: regionSchema.optional(),
      contains: oneOrMany(z.string().min(1).max(MAX_PATTERN_CHARS)).optional(),
      regex: oneOrMany(patternSchema).optional(),
      line: oneOrMany(patternSchema).optional(),
      all: z.array(matcherSchema).min(1).max(20).optional(),
      any: z.array(matcherSchema).min(1).max(20).optional(),
      not: matcherSchema.optional(),
    })
    .refine(
      (m) => m.contains !== undefined || m.regex !== undefined || m.line !== undefined || m.all || m.any || m.not,
      'a matcher needs at least one of contains, regex, line, all, any, not',
    ),
);

const ruleSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'rule ids are kebab-case'),
    priority: z.number().int().min(0).max(10_000),
    implies: z.strictObject({
      primary: z.enum(RULE_PRIMARIES),
      detail: z.enum(Object.values(DETAILS_BY_PRIMARY).flat() as [Exclude<AgentDetail, null>, ...Exclude<AgentDetail, null>[]]).nullable(),
    }),
    region: regionSchema,
    match: matcherSchema,
    sample: z.string().min(1).max(MAX_SAMPLE_CHARS),
    sampleTitle: z.string().min(1).max(MAX_SAMPLE_CHARS).optional(),
    sampleState: z.string().min(1).max(MAX_SAMPLE_CHARS).optional(),
    lookalikes: z.array(z.strictObject({ sample: z.string().min(1).max(MAX_SAMPLE_CHARS), why: z.string().min(1) })).optional(),
    source: z.string().min(10, 'source must say tool, version and recording (or "from knowledge, unverified")'),
    strongIdle: z.boolean().optional(),
    prompt: z
      .strictObject({
        anchor: patternSchema,
        within: patternSchema.optional(),
        top: patternSchema.optional(),
        bottom: patternSchema.optional(),
        omit: z.array(patternSchema).max(20).optional(),
      })
      .optional(),
    report: patternSchema.optional(),
    retriesByItself: z.boolean().optional(),
  })
  .superRefine((rule, ctx) => {
    const { primary, detail } = rule.implies;
    if (detail === null) {
      if (primary !== 'active') {
        ctx.addIssue({ code: 'custom', path: ['implies', 'detail'], message: `detail may be null only for active, not ${primary}` });
      }
    } else if (!(DETAILS_BY_PRIMARY[primary] as readonly string[]).includes(detail)) {
      ctx.addIssue({
        code: 'custom',
        path: ['implies', 'detail'],
        message: `${primary} cannot have detail ${detail} (allowed: ${DETAILS_BY_PRIMARY[primary].join(', ')})`,
      });
    }
    if (rule.strongIdle && primary !== 'idle') {
      ctx.addIssue({ code: 'custom', path: ['strongIdle'], message: `only idle rules can be strong idle signals, not ${primary}` });
    }
    if (rule.sampleTitle !== undefined && isReportRegion(rule.region)) {
      ctx.addIssue({ code: 'custom', path: ['sampleTitle'], message: 'only a screen rule carries the title of its sample' });
    }
    if (rule.sampleState !== undefined && isReportRegion(rule.region)) {
      ctx.addIssue({ code: 'custom', path: ['sampleState'], message: 'only a screen rule carries the state report of its sample' });
    }
    if (rule.prompt && (primary !== 'waiting' || isReportRegion(rule.region))) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'only waiting rules that read the screen locate a prompt' });
    }
    const reportsBlock = isBlockedDetail(rule.implies.detail) || rule.implies.detail === 'retrying';
    if (reportsBlock !== (rule.report !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['report'],
        message: "blocked and retrying rules, and only they, read the CLI's line (report)",
      });
    }
    if (rule.retriesByItself && !isBlockedDetail(rule.implies.detail)) {
      ctx.addIssue({ code: 'custom', path: ['retriesByItself'], message: 'only blocked rules say the CLI retries by itself' });
    }
    if (depth(rule.match) > MAX_MATCHER_DEPTH) {
      ctx.addIssue({ code: 'custom', path: ['match'], message: `matcher nesting deeper than ${MAX_MATCHER_DEPTH}` });
    }
  });

const ruleSetSchema = z.strictObject({
  agent: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  version: z.string().min(1),
  rules: z.array(ruleSchema).min(1).max(MAX_RULES_PER_SET),
  progressNormalizers: z
    .array(z.strictObject({ id: z.string().min(1), pattern: patternSchema, replace: z.string() }))
    .max(50)
    .optional(),
});

function depth(m: MatcherInput): number {
  const children = [...(m.all ?? []), ...(m.any ?? []), ...(m.not ? [m.not] : [])];
  return 1 + (children.length ? Math.max(...children.map(depth)) : 0);
}

export class RuleSetError extends Error {
  constructor(
    readonly agent: string,
    readonly problems: string[],
  ) {
    super(`Invalid status rules for "${agent}":\n  ${problems.join('\n  ')}`);
    this.name = 'RuleSetError';
  }
}

/** Validates and compiles a rule file. Throws RuleSetError listing every problem by rule id. */
export function loadRuleSet(input: RuleSetInput): RuleSet {
  const agent = typeof input?.agent === 'string' ? input.agent : '?';
  const parsed = ruleSetSchema.safeParse(input);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeIssue(input, issue.path, issue.message));
  } else {
    const seen = new Set<string>();
    for (const rule of parsed.data.rules) {
      if (seen.has(rule.id)) problems.push(`rule ${rule.id}: duplicate id`);
      seen.add(rule.id);
      for (const error of statefulRegexes(rule.match)) problems.push(`rule ${rule.id}: ${error}`);
      for (const error of statefulPatterns(promptPatterns(rule.prompt))) problems.push(`rule ${rule.id} (prompt): ${error}`);
      for (const error of statefulPatterns(rule.report ? [rule.report] : [])) problems.push(`rule ${rule.id} (report): ${error}`);
    }
  }
  if (problems.length) throw new RuleSetError(agent, problems);
  const data = parsed.data!;
  const rules: StatusRule[] = data.rules
    .map((r) => ({
      ...r,
      key: `${data.agent}/${r.id}`,
      match: compileMatcher(r.match),
      prompt: r.prompt && compilePromptLayout(r.prompt),
      report: r.report === undefined ? undefined : toRegExp(r.report),
    }))
    .sort((a, b) => b.priority - a.priority);
  return {
    agent: data.agent,
    version: data.version,
    rules,
    progressNormalizers: (data.progressNormalizers ?? []).map((n) => ({
      id: n.id,
      pattern: toGlobalRegExp(n.pattern),
      replace: n.replace,
    })),
  };
}

function describeIssue(input: RuleSetInput, path: PropertyKey[], message: string): string {
  if (path[0] === 'rules' && typeof path[1] === 'number') {
    const id = input.rules?.[path[1]]?.id;
    const where = path.slice(2).map(String).join('.');
    return `rule ${typeof id === 'string' ? id : `#${path[1]}`}${where ? ` (${where})` : ''}: ${message}`;
  }
  return `${path.map(String).join('.') || 'rule set'}: ${message}`;
}

/** `g`/`y` regexes keep `lastIndex` between calls and would match every other screen. */
function statefulRegexes(m: MatcherInput): string[] {
  const out = statefulPatterns([...asArray(m.regex), ...asArray(m.line)]);
  for (const c of [...(m.all ?? []), ...(m.any ?? []), ...(m.not ? [m.not] : [])]) out.push(...statefulRegexes(c));
  return out;
}

function statefulPatterns(patterns: readonly Pattern[]): string[] {
  return patterns
    .filter((p): p is RegExp => p instanceof RegExp && (p.global || p.sticky))
    .map((p) => `regex /${p.source}/${p.flags}: drop the g/y flag`);
}

function promptPatterns(p: PromptLayoutInput | undefined): Pattern[] {
  if (!p) return [];
  return [p.anchor, p.within, p.top, p.bottom, ...(p.omit ?? [])].filter((x): x is Pattern => x !== undefined);
}

function compilePromptLayout(p: PromptLayoutInput): PromptLayout {
  const optional = (x: Pattern | undefined) => (x === undefined ? undefined : toRegExp(x));
  return {
    anchor: toRegExp(p.anchor),
    within: optional(p.within),
    top: optional(p.top),
    bottom: optional(p.bottom),
    omit: (p.omit ?? []).map(toRegExp),
  };
}

function compileMatcher(m: MatcherInput): CompiledMatcher {
  return {
    region: m.region,
    contains: asArray(m.contains),
    regex: asArray(m.regex).map(toRegExp),
    line: asArray(m.line).map(toRegExp),
    all: (m.all ?? []).map(compileMatcher),
    any: (m.any ?? []).map(compileMatcher),
    not: m.not ? compileMatcher(m.not) : undefined,
  };
}

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function toRegExp(p: Pattern): RegExp {
  return p instanceof RegExp ? p : new RegExp(p, 'u');
}

function toGlobalRegExp(p: Pattern): RegExp {
  const r = toRegExp(p);
  const flags = new Set(r.flags.split(''));
  flags.add('g');
  flags.add('m');
  return new RegExp(r.source, [...flags].join(''));
}

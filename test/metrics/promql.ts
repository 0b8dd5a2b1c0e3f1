import { parser } from '@prometheus-io/lezer-promql';
import type { Sample } from './scrape.js';

/**
 * Just enough PromQL to check and draw the shipped Grafana dashboard, parsed with Prometheus' own grammar
 * (@prometheus-io/lezer-promql). The evaluator knows the few forms the dashboard uses (selectors, rate,
 * increase, sum/max by, histogram_quantile, time(), arithmetic with a number) and refuses anything else,
 * so a panel it cannot draw faithfully fails loudly instead of being drawn wrong.
 */

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];
type Labels = Record<string, string>;
export type Vector = Array<{ labels: Labels; value: number }>;

/** One scrape of /metrics, at `t` (Unix seconds). */
export interface Scrape {
  t: number;
  samples: Sample[];
}

/** Grafana's variables as the dashboard uses them, replaced the way Grafana would before a query. */
export function interpolate(expr: string, vars: { rateInterval: string; instance: string }): string {
  return expr.replaceAll('$__rate_interval', vars.rateInterval).replaceAll('$instance', vars.instance);
}

function parse(expr: string): SyntaxNode {
  const tree = parser.parse(expr);
  let broken: string | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError) broken ??= `at ${node.from}`;
    },
  });
  if (broken) throw new Error(`not valid PromQL (${broken}): ${expr}`);
  return tree.topNode;
}

const text = (expr: string, node: SyntaxNode) => expr.slice(node.from, node.to);

/** Every metric name a PromQL expression selects. Throws if the expression does not parse. */
export function metricNamesIn(expr: string): string[] {
  const names = new Set<string>();
  const source = interpolate(expr, { rateInterval: '1m', instance: '.*' });
  const top = parse(source);
  const cursor = top.cursor();
  do {
    if (cursor.name === 'VectorSelector') {
      const id = cursor.node.getChild('Identifier');
      if (id) names.add(text(source, id));
    }
  } while (cursor.next());
  return [...names];
}

/** The metric family a sample name belongs to (a histogram's _bucket, _count and _sum are its family). */
export function familyOf(name: string, families: ReadonlySet<string>): string | undefined {
  if (families.has(name)) return name;
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return families.has(base) ? base : undefined;
}

function durationSeconds(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!m) throw new Error(`unsupported duration ${value}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

function matchersOf(expr: string, selector: SyntaxNode): Array<(labels: Labels) => boolean> {
  const list = selector.getChild('LabelMatchers');
  if (!list) return [];
  return list.getChildren('UnquotedLabelMatcher').map((m) => {
    const name = text(expr, m.getChild('LabelName')!);
    const op = text(expr, m.getChild('MatchOp')!);
    const value = JSON.parse(text(expr, m.getChild('StringLiteral')!)) as string;
    const re = new RegExp(`^(?:${value})$`);
    const v = (labels: Labels) => labels[name] ?? '';
    if (op === '=') return (labels: Labels) => v(labels) === value;
    if (op === '!=') return (labels: Labels) => v(labels) !== value;
    if (op === '=~') return (labels: Labels) => re.test(v(labels));
    if (op === '!~') return (labels: Labels) => !re.test(v(labels));
    throw new Error(`unsupported matcher ${op}`);
  });
}

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

/** The samples of one selector at one scrape. */
function select(expr: string, selector: SyntaxNode, scrape: Scrape): Vector {
  const name = text(expr, selector.getChild('Identifier')!);
  const matchers = matchersOf(expr, selector);
  return scrape.samples
    .filter((s) => s.name === name && matchers.every((m) => m(s.labels)))
    .map((s) => ({ labels: { ...s.labels }, value: s.value }));
}

/** Per-second increase over the window ending at scrape `at`, from the first and last scrape in it. */
function rate(expr: string, matrix: SyntaxNode, history: Scrape[], at: number): Vector {
  const selector = matrix.getChild('VectorSelector')!;
  const window = durationSeconds(text(expr, matrix.getChild('DurationExpr')!));
  const now = history[at]!;
  const inWindow = history.slice(0, at + 1).filter((s) => s.t >= now.t - window);
  const first = inWindow[0]!;
  if (inWindow.length < 2) return [];
  const start = new Map(select(expr, selector, first).map((s) => [key(s.labels), s.value]));
  return select(expr, selector, now).map((s) => {
    const before = start.get(key(s.labels)) ?? 0;
    // A counter that went down was reset: count from zero, as Prometheus does.
    const increase = s.value >= before ? s.value - before : s.value;
    return { labels: s.labels, value: increase / (now.t - first.t) };
  });
}

function aggregate(op: string, by: string[], input: Vector): Vector {
  const groups = new Map<string, { labels: Labels; values: number[] }>();
  for (const s of input) {
    const labels = Object.fromEntries(by.filter((l) => l in s.labels).map((l) => [l, s.labels[l]!]));
    const k = key(labels);
    const group = groups.get(k) ?? { labels, values: [] };
    group.values.push(s.value);
    groups.set(k, group);
  }
  return [...groups.values()].map(({ labels, values }) => ({
    labels,
    value: op === 'sum' ? values.reduce((a, b) => a + b, 0) : Math.max(...values),
  }));
}

/** Prometheus' histogram_quantile: linear interpolation within the bucket that holds the rank. */
function histogramQuantile(q: number, input: Vector): Vector {
  const series = new Map<string, { labels: Labels; buckets: Array<{ le: number; count: number }> }>();
  for (const s of input) {
    const { le, ...labels } = s.labels;
    if (le === undefined) continue;
    const k = key(labels);
    const entry = series.get(k) ?? { labels, buckets: [] };
    entry.buckets.push({ le: le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), count: s.value });
    series.set(k, entry);
  }
  const out: Vector = [];
  for (const { labels, buckets } of series.values()) {
    buckets.sort((a, b) => a.le - b.le);
    const total = buckets.at(-1)?.count ?? 0;
    if (total <= 0) continue;
    const rank = q * total;
    const i = buckets.findIndex((b) => b.count >= rank);
    const upper = buckets[i]!;
    if (upper.le === Number.POSITIVE_INFINITY) {
      out.push({ labels, value: buckets.at(-2)?.le ?? 0 });
      continue;
    }
    const lower = i > 0 ? buckets[i - 1]! : { le: 0, count: 0 };
    const inBucket = upper.count - lower.count;
    const value =
      inBucket > 0 ? lower.le + ((upper.le - lower.le) * (rank - lower.count)) / inBucket : upper.le;
    out.push({ labels, value });
  }
  return out;
}

function evalNode(expr: string, node: SyntaxNode, history: Scrape[], at: number): Vector | number {
  switch (node.name) {
    case 'PromQL':
    case 'ParenExpr':
      return evalNode(
        expr,
        node.firstChild!.name === '(' ? node.firstChild!.nextSibling! : node.firstChild!,
        history,
        at,
      );
    case 'NumberDurationLiteral':
      return Number(text(expr, node));
    case 'VectorSelector':
      return select(expr, node, history[at]!);
    case 'FunctionCall': {
      const fn = text(expr, node.getChild('FunctionIdentifier')!);
      const body = node.getChild('FunctionCallBody')!;
      const argNodes: SyntaxNode[] = [];
      for (let c = body.firstChild; c; c = c.nextSibling)
        if (!['(', ')', ','].includes(c.name)) argNodes.push(c);
      if (fn === 'time') return history[at]!.t;
      if (fn === 'rate' || fn === 'increase') {
        const matrix = argNodes[0]!;
        if (matrix.name !== 'MatrixSelector') throw new Error(`${fn} needs a range selector`);
        const perSecond = rate(expr, matrix, history, at);
        if (fn === 'rate') return perSecond;
        const window = durationSeconds(text(expr, matrix.getChild('DurationExpr')!));
        return perSecond.map((s) => ({ ...s, value: s.value * window }));
      }
      if (fn === 'histogram_quantile') {
        const q = evalNode(expr, argNodes[0]!, history, at);
        const v = evalNode(expr, argNodes[1]!, history, at);
        if (typeof q !== 'number' || typeof v === 'number')
          throw new Error('histogram_quantile(number, vector)');
        return histogramQuantile(q, v);
      }
      throw new Error(`function ${fn} is not supported by this renderer`);
    }
    case 'AggregateExpr': {
      const op = text(expr, node.getChild('AggregateOp')!);
      if (op !== 'sum' && op !== 'max')
        throw new Error(`aggregation ${op} is not supported by this renderer`);
      const modifier = node.getChild('AggregateModifier');
      if (modifier && !modifier.getChild('By')) throw new Error('only "by" grouping is supported');
      const by = modifier
        ? modifier
            .getChild('GroupingLabels')!
            .getChildren('LabelName')
            .map((n) => text(expr, n))
        : [];
      const body = node.getChild('FunctionCallBody')!;
      let inner: SyntaxNode | null = body.firstChild;
      while (inner && inner.name === '(') inner = inner.nextSibling;
      const v = evalNode(expr, inner!, history, at);
      if (typeof v === 'number') throw new Error(`${op} of a number`);
      return aggregate(op, by, v);
    }
    case 'BinaryExpr': {
      const left = node.firstChild!;
      const operator = left.nextSibling!;
      const right = operator.nextSibling!;
      const l = evalNode(expr, left, history, at);
      const r = evalNode(expr, right, history, at);
      const apply = (a: number, b: number) => {
        switch (operator.name) {
          case 'Add':
            return a + b;
          case 'Sub':
            return a - b;
          case 'Mul':
            return a * b;
          case 'Div':
            return a / b;
          default:
            throw new Error(`operator ${operator.name} is not supported by this renderer`);
        }
      };
      if (typeof l === 'number' && typeof r === 'number') return apply(l, r);
      if (typeof l === 'number' && typeof r !== 'number')
        return r.map((s) => ({ labels: s.labels, value: apply(l, s.value) }));
      if (typeof r === 'number' && typeof l !== 'number')
        return l.map((s) => ({ labels: s.labels, value: apply(s.value, r) }));
      throw new Error('vector-to-vector arithmetic is not supported by this renderer');
    }
    default:
      throw new Error(`${node.name} is not supported by this renderer: ${text(expr, node)}`);
  }
}

/** The value of an (interpolated) expression at scrape `at` of `history`. */
export function evaluate(expr: string, history: Scrape[], at: number): Vector {
  const v = evalNode(expr, parse(expr), history, at);
  return typeof v === 'number' ? [{ labels: {}, value: v }] : v;
}

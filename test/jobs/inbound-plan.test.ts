import { describe, expect, it } from 'vitest';
import { type PlanEntry, planPosts } from '../../src/jobs/inbound-plan.js';

const limits = { maxItems: 3, maxSize: 100, budget: 4 };

function entries(spec: Array<[msisdn: string, threadTs?: string, size?: number]>): PlanEntry<number>[] {
  return spec.map(([msisdn, threadTs, size = 10], value) => ({
    msisdn,
    ...(threadTs ? { threadTs } : {}),
    size,
    value,
  }));
}

const shape = (plan: ReturnType<typeof planPosts<number>>) =>
  plan.map((p) => [
    p.thread.kind === 'existing'
      ? p.thread.ts
      : p.thread.kind === 'follow'
        ? `follow ${p.thread.post}`
        : 'new',
    p.entries.map((e) => e.value),
    p.shared,
  ]);

describe('planPosts', () => {
  it('gives each conversation its own posts while the backlog fits the budget', () => {
    const plan = planPosts(entries([['A'], ['B', '111.1'], ['A'], ['C']]), limits);
    expect(shape(plan)).toEqual([
      ['new', [0, 2], false],
      ['111.1', [1], false],
      ['new', [3], false],
    ]);
  });

  it('splits a conversation over posts by count and size; later parts reply in its thread', () => {
    const plan = planPosts(entries([['A'], ['A'], ['A'], ['A'], ['A', undefined, 95]]), {
      ...limits,
      budget: 10,
    });
    expect(shape(plan)).toEqual([
      ['new', [0, 1, 2], false],
      ['follow 0', [3], false],
      ['follow 0', [4], false],
    ]);
  });

  it('over budget, packs numbers without a thread into shared posts and keeps existing threads', () => {
    const plan = planPosts(entries([['A'], ['B'], ['T', '5.5'], ['C'], ['D'], ['E'], ['F'], ['G']]), limits);
    expect(shape(plan)).toEqual([
      ['new', [0, 1, 3], true],
      ['5.5', [2], false],
      ['new', [4, 5, 6], true],
      ['new', [7], false],
    ]);
    expect(plan.length).toBeLessThanOrEqual(limits.budget);
  });

  it('packs the latest existing threads too when keeping them would break the budget', () => {
    const plan = planPosts(
      entries([
        ['A', '1.1'],
        ['B', '2.2'],
        ['C', '3.3'],
        ['D', '4.4'],
        ['E', '5.5'],
        ['F', '6.6'],
      ]),
      limits,
    );
    expect(shape(plan)).toEqual([
      ['1.1', [0], false],
      ['2.2', [1], false],
      ['3.3', [2], false],
      ['new', [3, 4, 5], true],
    ]);
  });

  it('keeps one number’s messages together in a shared post', () => {
    const plan = planPosts(entries([['A'], ['B'], ['A'], ['C'], ['D'], ['B'], ['E']]), {
      ...limits,
      budget: 2,
    });
    expect(plan.map((p) => p.entries.map((e) => e.msisdn))).toEqual([
      ['A', 'A', 'B'],
      ['B', 'C', 'D'],
      ['E'],
    ]);
  });

  it('never exceeds the item and size limits', () => {
    const many = entries(
      Array.from(
        { length: 200 },
        (_, i) => [`N${i}`, undefined, 1 + (i % 40)] as [string, undefined, number],
      ),
    );
    for (const post of planPosts(many, { maxItems: 48, maxSize: 300, budget: 5 })) {
      expect(post.entries.length).toBeLessThanOrEqual(48);
      expect(post.entries.reduce((n, e) => n + e.size, 0)).toBeLessThanOrEqual(300);
    }
  });

  it('plans nothing for nothing', () => {
    expect(planPosts([], limits)).toEqual([]);
  });
});

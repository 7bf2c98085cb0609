/** The runner's slot plan: one slot per CPU it may use by default, pinned, and said in words. */
import { describe, expect, it } from 'vitest';
import { allowedCpus, parseSlots, planSlots } from '@judge/runner';

describe('slots', () => {
  it('reads the CPUs this process may use from its affinity list', () => {
    expect(allowedCpus('Name:\tx\nCpus_allowed_list:\t0-3\n')).toEqual([0, 1, 2, 3]);
    expect(allowedCpus('Cpus_allowed_list:\t2,4-5,7\n')).toEqual([2, 4, 5, 7]);
    expect(allowedCpus().length).toBeGreaterThan(0);
  });

  it('defaults to one slot per allowed CPU, each pinned to its own, and says so', () => {
    const p = planSlots('auto', true, [2, 3]);
    expect(p).toEqual({ slots: 2, cpus: [2, 3], why: '2 slots: one per CPU this runner may use (2), each pinned to a CPU of its own (2, 3)' });
    expect(planSlots('auto', false, [0, 1]).cpus).toEqual([]);
    expect(planSlots('auto', false, [0, 1]).why).toContain('not pinned (--no-pin)');
  });

  it('pins as many slots as asked while there are CPUs for them, and none beyond', () => {
    expect(planSlots(1, true, [0, 1])).toMatchObject({ slots: 1, cpus: [0], why: '1 slot: as asked, pinned to CPU 0' });
    expect(planSlots(3, true, [0, 1])).toMatchObject({ slots: 3, cpus: [] });
    expect(planSlots(3, true, [0, 1]).why).toContain('more slots than CPUs');
  });

  it('takes a whole number from 1 to 64 or auto, and refuses the rest', () => {
    expect(parseSlots('auto')).toBe('auto');
    expect(parseSlots('4')).toBe(4);
    for (const bad of ['0', '65', '1.5', 'two', '']) expect(() => parseSlots(bad)).toThrow(/1 to 64, or auto/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatMemory, formatMs, parseDetails, peaks } from './details';

describe('the details attachment as the submission page reads it', () => {
  it('finds the most time and memory over the tests, and reads anything else as no details', () => {
    const d = parseDetails(JSON.stringify({ verdict: 'WA', tests: [{ test: 'sample/1', verdict: 'AC', cpuMs: 12, memoryBytes: 3 << 20 }, { test: 'secret/1', verdict: 'WA', cpuMs: 40, memoryBytes: null }] }))!;
    expect(peaks(d)).toEqual({ cpuMs: 40, memoryBytes: 3 << 20 });
    expect(peaks({ tests: [] })).toEqual({});
    expect(parseDetails('{"tests":"no"}')).toEqual({ tests: [] });
    expect(parseDetails('not json')).toBeUndefined();
    expect(parseDetails(undefined)).toBeUndefined();
  });

  it('writes times and sizes short', () => {
    expect([formatMs(12.4), formatMs(1500), formatMemory(2048), formatMemory(3 << 20)]).toEqual(['12 ms', '1.50 s', '2 KiB', '3.0 MiB']);
  });
});

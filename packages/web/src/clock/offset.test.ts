import { describe, expect, it } from 'vitest';
import { bestSample, sampleOffset } from './offset';

describe("the server clock's offset", () => {
  it('takes the server time for the midpoint of the request', () => {
    // sent at 1000 and answered at 1200 by a server that said 5100: the server is 4000 ms ahead
    expect(sampleOffset(1000, 5100, 1200)).toEqual({ offset: 4000, roundTrip: 200 });
    // a browser clock ahead of the server gets a negative offset
    expect(sampleOffset(10_000, 7_050, 10_100).offset).toBe(-3000);
  });

  it('keeps the sample with the shortest round trip', () => {
    const slow = sampleOffset(0, 900, 1000); // offset 400, ±500
    const fast = sampleOffset(2000, 2420, 2040); // offset 400, ±20
    const odd = sampleOffset(3000, 9000, 3600);
    expect(bestSample([slow, fast, odd])).toBe(fast);
    expect(bestSample([])).toBeUndefined();
  });
});

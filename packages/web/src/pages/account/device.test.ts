import { describe, expect, it } from 'vitest';
import { deviceOf } from './device';

describe('deviceOf', () => {
  it('names the browser and the system of common user agents', () => {
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome · Linux');
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox · Windows');
    expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe('Safari · iOS');
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge · Windows');
  });

  it('falls back to the start of an unknown agent, and to nothing without one', () => {
    expect(deviceOf('judgectl/0.1.0')).toBe('judgectl/0.1.0');
    expect(deviceOf(undefined)).toBeUndefined();
  });
});

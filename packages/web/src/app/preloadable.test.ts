import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

describe('preloadable chunks', () => {
  it('imports once however often it is asked, and holds the module once it has arrived', async () => {
    let imports = 0;
    const module = { default: 'page' };
    const chunk = preloadable(async () => {
      imports++;
      return module;
    });
    expect(chunk.loaded).toBeUndefined();
    const first = chunk.load();
    expect(chunk.load()).toBe(first);
    expect(chunk.loaded).toBeUndefined();
    await expect(first).resolves.toBe(module);
    expect(chunk.loaded).toBe(module);
    await chunk.load();
    expect(imports).toBe(1);
  });

  it('asks again after a failed import, which a later render may get', async () => {
    let imports = 0;
    const chunk = preloadable(async () => {
      if (++imports === 1) throw new Error('network');
      return { default: 'page' };
    });
    await expect(chunk.load()).rejects.toThrow('network');
    expect(chunk.loaded).toBeUndefined();
    await expect(chunk.load()).resolves.toEqual({ default: 'page' });
    expect(imports).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { sizeChecks } from './sizes.js';

describe('size targets', () => {
  it('judge the install and the image layers against 100 and 120 MB', () => {
    const checks = sizeChecks({
      install: { bytes: 59_500_000, packages: 72 },
      image: { bytes: 262_000_000 + 121_000_000, baseBytes: 262_000_000 },
    });
    expect(checks.map((c) => c.ok)).toEqual([true, false]);
    expect(checks[0].measured).toBe('59.5 MB, 72 packages');
    expect(checks[1].measured).toContain('121.0 MB');
  });

  it('count a size not measured as a target not met, saying why', () => {
    const checks = sizeChecks({ image: { missing: 'no image' } });
    expect(checks.map((c) => c.ok)).toEqual([false, false]);
    expect(checks[1].measured).toBe('not measured: no image');
  });
});

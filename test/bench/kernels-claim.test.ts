import { describe, expect, it } from 'vitest';
import { crossCheckNote, cTarget, targetWord } from '../../bench/kernels-claim.js';

describe('kernel benchmark claims', () => {
  it('claims release = scalar = C only when the C baseline ran and was compared', () => {
    const note = crossCheckNote({ agreed: ['release', 'scalar'], checksum: '42', cRuns: 5 });
    expect(note).toContain('release = scalar = C');
    expect(crossCheckNote({ agreed: ['release', 'mine'], checksum: '42', cRuns: 1 })).toContain('release = mine = C');
    expect(note).toContain('5 runs');
  });

  it('says what was compared, and why C was not, when the C baseline could not run', () => {
    const missing = crossCheckNote({ agreed: ['release', 'scalar'], checksum: '42', cRuns: 0, cUnavailable: 'cc failed: spawnSync cc ENOENT' });
    expect(missing).not.toContain('= C');
    expect(missing).toContain('release = scalar only (checksum 42)');
    expect(missing).toContain('cc failed: spawnSync cc ENOENT');
    const crashed = crossCheckNote({ agreed: ['release', 'scalar'], checksum: '42', cRuns: 0, cUnavailable: 'its binary failed: Illegal instruction' });
    expect(crashed).not.toContain('= C');
    expect(crossCheckNote({ agreed: ['release'], checksum: '42', cRuns: 0 })).toContain('release alone');
  });

  it('reports a target that needs C as not measured without it, never as met or missed', () => {
    expect(cTarget({ agreed: ['release'], checksum: '1', cRuns: 3 }, true)).toBe(true);
    expect(cTarget({ agreed: ['release'], checksum: '1', cRuns: 3 }, false)).toBe(false);
    expect(cTarget({ agreed: ['release'], checksum: '1', cRuns: 0, cUnavailable: 'no compiler' }, false)).toBeNull();
    expect([true, false, null].map(targetWord)).toEqual(['yes', 'NO', 'not measured']);
  });
});

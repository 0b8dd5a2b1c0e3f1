import { describe, expect, it } from 'vitest';
import { isTrimmedAway, trimmed } from '../../src/sms/trim.js';

describe('trimmed', () => {
  it('knows exactly the code units String#trim removes', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      expect(isTrimmedAway(code), `U+${code.toString(16)}`).toBe(`a${c}`.trim() === 'a');
    }
  });

  it('answers as String#trim does, blanks at either end or none', () => {
    const samples = ['', ' ', '\u00a0x', 'x\u3000', '\ufeff0532 123\t', 'Ayşe', ' Ayşe ', 'ş', '\n', 'a b'];
    for (const text of samples) expect(trimmed(text)).toBe(text.trim());
  });
});

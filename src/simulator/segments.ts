import { analyzeText } from '../sms/encoding.js';
import type { DataCoding } from './types.js';

export interface TextMeasure {
  segments: number;
  /** Characters the coding cannot carry; a non-empty list means the text is refused. */
  unrepresentable: string[];
}

const ENCODING_OF = {
  Default: 'GSM7',
  TurkishSingleShift: 'TurkishSingleShift',
  UCS2: 'UCS2',
} as const;

/**
 * Segments the text needs in the requested coding, and what the coding cannot carry.
 * A real gateway would either substitute '?' or re-encode as UCS2 (and charge more); the simulator
 * refuses instead, so a client never pays for a message that arrives mangled.
 */
export function measureText(text: string, coding: DataCoding): TextMeasure {
  const analysis = analyzeText(text, { encoding: ENCODING_OF[coding] });
  return { segments: analysis.segments, unrepresentable: analysis.unrepresentable };
}

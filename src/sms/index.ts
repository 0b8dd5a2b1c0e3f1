export {
  type CsvError,
  type CsvRow,
  NO_HEADER,
  type ParsedCsv,
  type ParsedCsvTable,
  parseCsv,
  parseCsvTable,
} from './csv.js';
export {
  analyzeText,
  autoSegments,
  autoSegmentsCode,
  autoSegmentsOfCounted,
  CODINGS_BY_RANK,
  countPiece,
  type DataCoding,
  dataCodingOf,
  encodingOf,
  NEEDS_TEXT,
  rankOfCode,
  type SmsEncoding,
  segmentsIn,
  segmentsOfCode,
  segmentsOfCounted,
  type TextAnalysis,
  type UnsendableCharacter,
  type UnsendableKind,
  unsendableCharacters,
} from './encoding.js';
export {
  type CountryCode,
  formatForPeople,
  isCountryCode,
  maskNumber,
  type NormalisedNumber,
  normaliseNumber,
} from './numbers.js';
export {
  type AddressedRows,
  type Addressees,
  addresseesWhere,
  addressRows,
  type Envelope,
  joinMessage,
  noAddressees,
  type RenderedEnvelopes,
  renderEnvelopes,
  templatePlaceholders,
} from './personalise.js';
export {
  type DuplicateRecipient,
  type InvalidRecipient,
  type ParsedRecipients,
  parseRecipients,
  type Recipient,
} from './recipients.js';
export { DEFAULT_STOP_WORDS, isStopWord } from './stopwords.js';

import { expect } from 'vitest';
import { readTableFile, TableFileError } from '../../src/tables/table-file.js';

/** What a person is told when `promise` refuses a file: fails the test when it is not refused with a reason. */
export async function refusalMessage(promise: Promise<unknown>, label?: string): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, label).toBeInstanceOf(TableFileError);
  return (error as Error).message;
}

/** Why reading the file `name` is refused. */
export const whyRefused = (name: string, bytes: Uint8Array) =>
  refusalMessage(readTableFile(name, bytes), name);

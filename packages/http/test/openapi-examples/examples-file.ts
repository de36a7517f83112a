import { join } from 'node:path';
import type { RecordedExamples } from '@pis/contract';

export const EXAMPLES_FILE = join(__dirname, '../../../contract/src/openapi/examples.json');

/** The file's text: two-space JSON with a final newline. */
export const examplesText = (examples: RecordedExamples): string => `${JSON.stringify(examples, null, 2)}\n`;

// Writes packages/contract/src/openapi/examples.json: the OpenAPI document's examples, recorded
// from the service over in-memory adapters (record-examples.ts). openapi-examples.spec.ts fails
// when the committed file differs from what this records today.
//
// Usage: pnpm openapi:examples
import { writeFileSync } from 'node:fs';
import { EXAMPLES_FILE, examplesText } from './examples-file';
import { recordExamples } from './record-examples';

void recordExamples().then((examples) => {
  writeFileSync(EXAMPLES_FILE, examplesText(examples));
  console.log(`wrote ${EXAMPLES_FILE}`);
});

import { readFileSync } from 'node:fs';
import { EXAMPLES_FILE, examplesText } from './examples-file';
import { recordExamples } from './record-examples';

/**
 * The OpenAPI document's examples are what the service answers: recorded by walking the whole
 * path through the HTTP app over in-memory adapters, with the contract's request fixtures.
 */
describe('The recorded examples of the OpenAPI document', () => {
  it('When the whole path is walked again, then it records exactly the committed examples (else run pnpm openapi:examples)', async () => {
    const examples = await recordExamples();
    const recorded = examplesText(examples);
    const committed = readFileSync(EXAMPLES_FILE, 'utf8');

    expect(Object.keys(examples.operations).length).toBeGreaterThan(40);
    // A difference right after `pnpm openapi:examples` means the recording is not deterministic.
    expect(recorded === committed ? 'fresh' : firstDifference(committed, recorded)).toBe('fresh');
  });
});

function firstDifference(committed: string, recorded: string): string {
  const ours = committed.split('\n');
  const theirs = recorded.split('\n');
  const line = theirs.findIndex((text, i) => text !== ours[i]);
  const at = line === -1 ? ours.length : line;
  return `stale from line ${at + 1}: committed ${JSON.stringify(ours[at])}, recorded ${JSON.stringify(theirs[at])}; run pnpm openapi:examples`;
}

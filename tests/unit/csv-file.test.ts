import { describe, expect, it } from 'vitest';
import { csvFile, csvLine, INCOMPLETE_CSV_LINE } from '../../server/http/csv.ts';

/** Everything a file's stream gives before it ends or fails, and how it ended. */
async function drain(stream: AsyncIterable<unknown>): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    for await (const chunk of stream) text += String(chunk);
    return { text, error: null };
  } catch (error) {
    return { text, error };
  }
}

// Issue 47: a streamed CSV whose source failed midway (a report past its time limit) used to
// end after its headers and some lines with nothing to say it was short.
describe('a streamed CSV file', () => {
  it('ends as its lines end when its source finishes', async () => {
    const { text, error } = await drain(csvFile('ok.csv', () => [csvLine(['a', 'b']), csvLine([1, 2])]).stream);
    expect([text, error]).toEqual(['a,b\r\n1,2\r\n', null]);
  });

  it('ends with a line saying it is incomplete, then fails, when its source fails midway', async () => {
    async function* source() {
      yield csvLine(['day', 'count']);
      yield csvLine(['2026-11-02', 4]);
      throw new Error('report.timeout');
    }
    const { text, error } = await drain(csvFile('cut.csv', source, 1).stream);
    expect(text).toBe(`day,count\r\n2026-11-02,4\r\n${INCOMPLETE_CSV_LINE}`);
    expect(text.trimEnd().split('\r\n').at(-1)).toMatch(/^INCOMPLETE: /);
    expect(error).toBeInstanceOf(Error);
  });
});

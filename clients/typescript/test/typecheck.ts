// SPDX-License-Identifier: MIT
// Compiled (tsc --noEmit) by client.test.mjs, never run: the generated types must let a
// caller narrow Result by kind, build job documents and read problems without casts.
import { SkirmishClient, SkirmishError, type JobDocument, type Result } from '../src/index.js';

export async function typecheck(client: SkirmishClient): Promise<number> {
  const doc: JobDocument = {
    kind: 'battle',
    seed: 1,
    params: {
      games: 100,
      attacker: { commander: 'Barracus', deck: [{ card: 'Chainslicer', count: 5 }] },
      defender: { commander: 'Iron Warden', deck: [{ card: 'Iron Maiden', count: 4 }] },
    },
  };
  const { job } = await client.submit(doc, { idempotencyKey: 'typecheck' });
  const done = await client.wait(job.id);
  const r: Result = await client.result(done.id);
  try {
    await client.cancel(job.id);
  } catch (e) {
    if (e instanceof SkirmishError && e.problem?.type === '/problems/job-final') return 0;
  }
  if (r.kind === 'battle') return r.win_rate;
  if (r.kind === 'optimize') return r.improvement ?? 0;
  return r.turns;
}

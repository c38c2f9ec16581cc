/**
 * Top functions by self time in a V8 CPU profile (node --cpu-prof):
 *   npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [count]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, count = '10'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top <file.cpuprofile> [count]');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const n = byNode.get(id)!;
  const where = n.callFrame.url ? n.callFrame.url.replace(/^.*\/(node_modules|services|scripts)\//, '$1/') : '';
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where}${where ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = profile.endTime - profile.startTime;
const idle = [...selfUs].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
console.log(`profile ${(total / 1e6).toFixed(1)} s, busy ${((total - idle) / 1e6).toFixed(1)} s`);
console.log('| self ms | % of busy | function |');
console.log('|---:|---:|---|');
for (const [k, us] of [...selfUs].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
  console.log(`| ${(us / 1000).toFixed(0)} | ${((100 * us) / (total - idle)).toFixed(1)} | ${k} |`);

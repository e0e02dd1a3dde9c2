import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What every file of examples/ must be for n8n to import it: a workflow whose name fits n8n's database column
 * (`workflow_entity.name` is a varchar(128) in PostgreSQL, which refuses a longer name: queue mode runs on it),
 * whose nodes of this package use the type names of a community install.
 */
const dir = join(__dirname, '..', '..', 'examples');
const examples = readdirSync(dir).filter((f) => f.endsWith('.json'));

test.each(examples)('%s can be imported by n8n on PostgreSQL', (file) => {
	const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
	expect(typeof workflow.name).toBe('string');
	expect(workflow.name.length).toBeLessThanOrEqual(128);
	const ours = workflow.nodes.filter((n) => /latam-fiscal|^CUSTOM\./.test(n.type));
	expect(ours.length).toBeGreaterThan(0);
	for (const n of ours) expect(n.type).toMatch(/^n8n-nodes-latam-fiscal\.[a-zA-Z]+$/);
});

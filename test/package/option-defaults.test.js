/** @import { INodeProperties, INodeType, INodePropertyOptions } from 'n8n-workflow' */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFakeClock } from '../harness/clock';
import { Engine, builtModule, workflowWith } from '../harness/engine';

/**
 * Every option parameter's default is one of its choices, in every node and version: a default the list does not
 * offer shows red in n8n's editor before the user touched anything ("The value "" is not supported!"). Static
 * lists are read from the descriptions; a dropdown filled by a method (loadOptions) is asked as the editor asks it
 * with no service reachable (a closed port), which is when it offers the least: its built-in list, or only its
 * "not chosen yet" entry.
 */

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every node class of the package (n8n.nodes), built. */
const nodes = /** @type {INodeType[]} */ (
	pkg.n8n.nodes.flatMap((/** @type {string} */ file) =>
		Object.values(builtModule(file.replace(/^dist\//, '').replace(/\.js$/, ''))).map(
			(NodeClass) => new /** @type {new () => INodeType} */ (NodeClass)(),
		),
	)
);
const credentialTypes = pkg.n8n.credentials.flatMap((/** @type {string} */ file) =>
	Object.values(builtModule(file.replace(/^dist\//, '').replace(/\.js$/, ''))).map(
		(C) => new /** @type {new () => object} */ (C)(),
	),
);

/**
 * Every options-type parameter, at any depth (collections, fixed collections), with where it sits.
 * @returns {Array<{ node: INodeType; where: string; property: INodeProperties }>}
 */
function optionParameters() {
	const out = [];
	const walk = (node, props, where) => {
		for (const property of props) {
			const here = `${where} › ${property.displayName}`;
			if (property.type === 'options' || property.type === 'multiOptions')
				out.push({ node, where: here, property });
			if (property.type === 'collection' || property.type === 'fixedCollection')
				for (const option of property.options ?? []) {
					if ('values' in option) walk(node, option.values, `${here} › ${option.displayName}`);
					else if ('type' in option) walk(node, [option], here);
				}
		}
	};
	for (const node of nodes) walk(node, node.description.properties, node.description.displayName);
	return out;
}

const CLOSED = 'http://127.0.0.1:9';

test('the package has option parameters to check, static and filled by a method', () => {
	const all = optionParameters();
	expect(all.filter((o) => !o.property.typeOptions?.loadOptionsMethod).length).toBeGreaterThan(50);
	expect(all.filter((o) => o.property.typeOptions?.loadOptionsMethod).length).toBeGreaterThan(10);
});

test('every static option parameter’s default is one of its choices', () => {
	const wrong = optionParameters()
		.filter(({ property }) => !property.typeOptions?.loadOptionsMethod)
		.filter(({ property }) => {
			const values = /** @type {INodePropertyOptions[]} */ (property.options ?? []).map(
				(o) => o.value,
			);
			const defaults = property.type === 'multiOptions' ? property.default : [property.default];
			return (
				!Array.isArray(defaults) ||
				!defaults.every((d) => values.includes(/** @type {never} */ (d)))
			);
		})
		.map(({ where, property }) => `${where}: ${JSON.stringify(property.default)}`);
	expect(wrong).toEqual([]);
});

test('every dropdown filled by a method offers its default, even with no service reachable', async () => {
	const engine = new Engine(nodes, credentialTypes);
	for (const type of credentialTypes)
		engine.credentials.set(/** @type {{ name: string }} */ (type).name, {
			baseUrl: CLOSED,
			stagingBaseUrl: CLOSED,
			productionBaseUrl: CLOSED,
			apiKey: 'k',
			clientId: 'c',
			clientSecret: 's',
		});
	const wrong = [];
	// The same method and default are asked once. On the fake clock: a refused connection is retried with backoff.
	const asked = new Set();
	const check = async ({ node, where, property }) => {
		const method = property.typeOptions?.loadOptionsMethod;
		const key = `${node.description.name} ${String(method)} ${JSON.stringify(property.default)}`;
		if (!method || asked.has(key)) return;
		asked.add(key);
		const credential = node.description.credentials?.[0]?.name;
		const context = engine.loadOptionsContext(
			workflowWith({
				nodeType: node.description.name,
				credentialType: credential,
				parameters: {},
				name: 'Node',
			}),
			'Node',
			`parameters.${property.name}`,
		);
		const load = node.methods?.loadOptions?.[method];
		if (!load) {
			wrong.push(`${where}: no method ${method}`);
			return;
		}
		// A multi-select's empty default needs no choice; it is the only default a method may fail on.
		const emptyMulti =
			property.type === 'multiOptions' &&
			Array.isArray(property.default) &&
			property.default.length === 0;
		if (emptyMulti) return;
		const values = (await load.call(context)).map((o) => o.value);
		if (!values.includes(/** @type {never} */ (property.default)))
			wrong.push(
				`${where} (${method}): ${JSON.stringify(property.default)} not in ${JSON.stringify(values)}`,
			);
	};
	await withFakeClock(async () => {
		for (const parameter of optionParameters()) await check(parameter);
	});
	expect(asked.size).toBeGreaterThan(5);
	expect(wrong).toEqual([]);
});

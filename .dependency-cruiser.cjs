// The import rules of the shipped code (nodes/, credentials/), checked by `npm run lint` with dependency-cruiser.
// ARCHITECTURE.md, "Where each rule lives", says why: a module depends on what is below it (shared/ below every
// node; a node's transport.ts and domain/ below its actions/), never in a circle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			comment:
				'An import circle: one of its modules must give the other what both need (a type, a table).',
			severity: 'error',
			from: {},
			to: { circular: true },
		},
		{
			name: 'no-arrow-up-to-actions',
			comment:
				'A transport, a domain/ module or nodes/shared/ imports an operation (actions/): what both need belongs below, in domain/ or shared/.',
			severity: 'error',
			from: { path: '^nodes/([^/]+/transport[.]ts$|[^/]+/domain/|shared/)' },
			to: { path: '^nodes/[^/]+/actions/' },
		},
		{
			name: 'declarations-without-n8n',
			comment:
				'The declarations\' rules (the ATS, the DIOT) are pure: n8n is the operation\'s (ARCHITECTURE.md, "Add an operation that turns many items into one").',
			severity: 'error',
			from: { path: '^nodes/(Sri/domain/ats|Sat/domain/diot)/' },
			to: { path: 'n8n-workflow' },
		},
		{
			name: 'shared-is-shared',
			comment: 'nodes/shared/ is used by the nodes, and uses none of them.',
			severity: 'error',
			from: { path: '^nodes/shared/' },
			to: { path: '^nodes/(?!shared/)' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		// Type-only imports count: a circle of types is still a circle for the reader.
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
	},
};

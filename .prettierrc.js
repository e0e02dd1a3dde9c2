// n8n's community-node starter configuration (the template of @n8n/node-cli), unchanged: the code reads like
// n8n's own. `npm run lint` checks it; `npm run format` applies it.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};

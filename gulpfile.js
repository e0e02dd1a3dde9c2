// Copies what tsc does not emit into dist/: node and credential icons (light and dark SVG) and the
// codex files (*.node.json) that n8n reads next to each compiled node.
const { src, dest, task } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

task('build:assets', copyAssets);
exports.default = copyAssets;

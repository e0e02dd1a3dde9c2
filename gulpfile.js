// Copies what tsc does not emit into dist/: node and credential icons (light and dark SVG) and the
// codex files (*.node.json) that n8n reads next to each compiled node. `build:clean` empties dist/ first, so
// a file moved or deleted in the sources does not linger in the build (and in the packed tarball).
const { rmSync } = require('node:fs');
const { src, dest, task } = require('gulp');

task('build:clean', (done) => {
	rmSync('dist', { recursive: true, force: true });
	done();
});

function copyAssets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

task('build:assets', copyAssets);
exports.default = copyAssets;

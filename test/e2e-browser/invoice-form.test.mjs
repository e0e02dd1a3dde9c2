// End-to-end in the real n8n editor, in headless Chromium: a bookkeeper who does not write code finds the node by
// what they type, enters their company once in the credential, fills the two-item invoice of the issue that started
// this (3 × "Servicio contable" at 40.00 with IVA 15 %, 1 × "Libro" at 12.50 with IVA 0 %, a buyer with a cédula,
// paid in cash) with only quantities, prices, tax codes, the buyer and the means of payment, runs it once, and reads
// the outcome in the output panel; then runs it again and reads why the SRI returned the second one.
// Run with `npm run test:e2e:browser` (CI runs it after the other e2e suites; it needs Debian's chromium package).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEV_OWNER } from '../../scripts/n8n/boot.mjs';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { fillTwoItemInvoice, launchBrowser, openEditor } from './editor.mjs';

const SECUENCIAL = '148';

let sb;
let n8n;
let browser;
/** @type {import('./editor.mjs').Editor} */
let editor;
let bodies;

before(async () => {
	sb = await e2eSandbox('e2e-browser');
	bodies = requireTestModule('receipts/setup');
	n8n = await startSuiteN8n(sb); // also creates the owner the editor signs in as
	browser = await launchBrowser();
	editor = await openEditor(browser, n8n.url, DEV_OWNER);
});

after(async () => {
	await browser?.close();
	await closeSuite(n8n, sb);
});

const issued = () => sb.sim.server.received('receipts').filter((r) => r.method === 'POST');

describe('the bookkeeper’s invoice, through the n8n editor', () => {
	test('the nodes panel finds the Receipts node by what a bookkeeper types, with or without accents, and shows what it does', async () => {
		await editor.newWorkflow();
		await editor.addTrigger('manual', 'Manual Trigger');
		await editor.page.getByTestId('node-creator-plus-button').click();
		for (const search of [
			'factura',
			'facturacion',
			'facturación',
			'retencion',
			'guia de remision',
			'nota de credito',
			'liquidacion de compra',
			'comprobante',
			'invoice',
			'SRI',
		]) {
			const entries = await editor.searchNodes(search);
			const receipts = entries.find((e) => e.startsWith('Receipts (Ecuador)'));
			assert.ok(receipts, `"${search}" finds Receipts (Ecuador); found: ${entries.join(' | ')}`);
			// The action node's own description, not the trigger's ("Starts a workflow when…").
			assert.match(receipts, /Issue Ecuadorian electronic receipts/, `"${search}": ${receipts}`);
		}
		await editor.page.keyboard.press('Escape');
	});

	test('the issuer is entered once in the credential, the invoice with quantities, prices, tax codes, buyer and means only, issued and authorized in one run', async () => {
		await editor.addAction('facturacion', 'Receipts (Ecuador)', 'Issue an invoice');
		const issuer = bodies.ISSUER;
		await editor.editCredential(async (credential) => {
			await credential.fill('issuerRuc', issuer.ruc);
			await credential.fill('issuerLegalName', issuer.razon_social);
			await credential.fill('issuerEstablishment', issuer.establecimiento.codigo);
			await credential.fill('issuerEmissionPoint', issuer.establecimiento.punto_emision);
			await credential.choose('issuerKeepsAccounting', 'Yes');
		});

		const form = editor.node;
		await form.fill('secuencial', SECUENCIAL);
		const { counts, first, second } = await fillTwoItemInvoice(form);
		assert.deepEqual(counts, [1, 2]);
		// IVA 15 % is what a new item starts with; the book is sold at 0 %.
		assert.equal(await form.shown('tax_codigo_porcentaje', first), 'IVA 15% (4)');
		assert.equal(await form.shown('tax_codigo_porcentaje', second), 'IVA 0% (0)');
		assert.match(await form.shown('medio', { collection: 'pagos' }), /^Cash \(Efectivo\)/);

		// What the form tells a bookkeeper about the amounts it leaves at 0: a line under each, a notice above Totals.
		assert.ok(
			await editor.page
				.getByText('The totals and the tax totals are computed from the items', { exact: false })
				.isVisible(),
			'the notice above Totals',
		);
		assert.ok(
			(await editor.page.getByText('Leave 0: the node computes it', { exact: true }).count()) >= 5,
			'a hint under the computed amounts',
		);

		sb.sim.server.clear();
		const panel = await editor.executeStep();
		assert.match(panel, /1 item/);
		const [out] = await editor.outputJson();
		assert.equal(out.estado, 'AUTORIZADO', JSON.stringify(out).slice(0, 800));
		assert.equal(out.rejected, false);
		assert.equal(
			out.numero,
			`${issuer.establecimiento.codigo}-${issuer.establecimiento.punto_emision}-${SECUENCIAL.padStart(9, '0')}`,
		);

		// Sent once, with every amount computed by the node and the issuer from the credential.
		const posts = issued();
		assert.deepEqual(
			posts.map((p) => p.path),
			['/invoices/issue'],
		);
		const body = posts[0].body;
		const expected = bodies.bookkeeperAmounts();
		assert.deepEqual(
			body.items.map((i) => [i.precio_total_sin_impuestos, i.impuestos]),
			expected.items.map((i) => [i.precio_total_sin_impuestos, i.impuestos]),
		);
		assert.deepEqual(body.totales, expected.totales);
		assert.deepEqual(
			body.pagos.map((p) => p.total),
			[150.5],
		);
		assert.equal(body.comprador.tipo_identificacion, '05'); // a 10-digit cédula, inferred
		assert.deepEqual(
			[
				body.emisor.ruc,
				body.emisor.establecimiento.codigo,
				body.emisor.establecimiento.punto_emision,
			],
			[issuer.ruc, '001', '002'],
		);
	});

	test('run again, the same invoice is returned by the SRI, and the output panel says why and what to do', async () => {
		sb.sim.server.clear();
		// A new node is version 3: the rejected invoice leaves by Not Authorized, and the panel shows the
		// Authorized branch empty — green never means authorized here.
		const first = await editor.executeStep();
		assert.match(first, /Authorized Branch[\s\S]*Not Authorized Branch \(1 item\)/);
		assert.match(first, /No output data in this branch/);
		const panel = await editor.outputBranch('Not Authorized');
		assert.match(panel, /DEVUELTO/);
		const [out] = await editor.outputJson();
		assert.equal(out.rejected, true);
		assert.match(out.reason, /^45 /);
		assert.match(out.next_step, /look it up/);
		assert.equal(issued().length, 1);
	});
});

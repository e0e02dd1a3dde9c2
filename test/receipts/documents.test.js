/** @import { IDataObject, INodeType } from 'n8n-workflow' */
import { built, workflowWith } from '../harness/engine';
import { invoiceBody, retentionBody, useReceipts } from './setup';

/**
 * Document → Send by Email and Download (any receipt kind), and the catalog dropdowns: through n8n-core
 * (WorkflowExecute, LoadOptionsContext) against the simulator over HTTP.
 */

const env = useReceipts();
const node = built('nodes/Receipts/Receipts.node', 'Receipts');

describe('Document → Send by Email', () => {
	test('to chosen recipients: POST /edocs/send-email/{id} with {destinatarios}, X-Key only; outputs {id, result}', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await env.run({
			resource: 'document',
			operation: 'sendEmail',
			receiptId: r.id,
			recipients: 'ana@example.com, pagos@example.com',
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path, call.headers['x-key'], call.headers['x-password']]).toEqual([
			'POST',
			`/edocs/send-email/${r.id}`,
			env.receipts.apiKey,
			undefined,
		]);
		expect(call.body).toEqual({ destinatarios: ['ana@example.com', 'pagos@example.com'] });
		expect(result.output('Receipts')[0].json).toEqual({
			id: r.id,
			result: 'Correo enviado',
			destinatarios: ['ana@example.com', 'pagos@example.com'],
		});
		expect(env.receipts.emails).toEqual([
			{ id: r.id, destinatarios: ['ana@example.com', 'pagos@example.com'] },
		]);
	});

	test('without recipients: no body, the service mails the buyer written in the receipt', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await env.run({ resource: 'document', operation: 'sendEmail', receiptId: r.id });
		expect(result.error).toBeUndefined();
		expect(env.calls()[0].raw.length).toBe(0);
		expect(env.receipts.emails).toEqual([{ id: r.id, destinatarios: ['juan@example.com'] }]);
	});

	test('a list from an expression is taken as it is', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		await env.run(
			{
				resource: 'document',
				operation: 'sendEmail',
				receiptId: r.id,
				recipients: '={{ $json.to }}',
			},
			[{ to: ['a@example.com', 'a@example.com', 'b@example.com'] }],
		);
		expect(env.calls()[0].body).toEqual({ destinatarios: ['a@example.com', 'b@example.com'] });
	});

	test('an address that is not one stops the run before anything is sent, naming it', async () => {
		const result = await env.run({
			resource: 'document',
			operation: 'sendEmail',
			receiptId: 'abc',
			recipients: 'ana@example.com, pagos(at)example.com',
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] recipients[1]: "pagos(at)example.com" is not an e-mail address',
		);
	});

	test('a lost answer is never re-sent: the item says the e-mail may have gone out', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({ service: 'receipts', method: 'POST', mode: 'error-after', times: 1 });
		const result = await env.run(
			{
				resource: 'document',
				operation: 'sendEmail',
				receiptId: r.id,
				recipients: 'ana@example.com',
			},
			[{}],
			true,
		);
		expect(env.calls()).toHaveLength(1);
		expect(env.receipts.emails).toHaveLength(1);
		const out = result.output('Receipts')[0].json;
		expect(out.error).toMatch(
			new RegExp(
				`^\\[item 1\\] The e-mail of receipt ${r.id} may have been sent: Receipts answered 502`,
			),
		);
		expect(out).toMatchObject({
			email_may_have_been_sent: true,
			id: r.id,
			destinatarios: ['ana@example.com'],
		});
	});

	test('a 429 is retried (the service did not take it): one e-mail', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			mode: 'throttle',
			retryAfterSeconds: 0,
			times: 1,
		});
		const result = await env.run({ resource: 'document', operation: 'sendEmail', receiptId: r.id });
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(2);
		expect(env.receipts.emails).toHaveLength(1);
	});

	test('the service’s refusal (no e-mail in the receipt) reaches the user', async () => {
		const r = env.receipts.seed(
			'retention',
			{
				...retentionBody(),
				sujeto: {
					identificacion: '1710034065001',
					tipo_identificacion: '04',
					razon_social: 'Juan',
				},
			},
			'AUTORIZADO',
		);
		const result = await env.run({ resource: 'document', operation: 'sendEmail', receiptId: r.id });
		expect(result.error?.message).toBe('[item 1] Receipts rejected the request: Datos inválidos');
		expect(result.error?.description).toMatch(
			/El comprobante no tiene correo electrónico del receptor/,
		);
	});
});

describe('Document → Download', () => {
	const download = (receiptId, file, extra = {}) =>
		env.run({ resource: 'document', operation: 'download', receiptId, file, ...extra });

	test('the RIDE: read from the receipt’s url_formato_impresion on the other host, without the API key; a PDF named after the access key', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await download(r.id, 'ride');
		expect(result.error).toBeUndefined();
		const [edoc, file] = env.calls();
		expect([edoc.method, edoc.path, edoc.headers['x-key']]).toEqual([
			'GET',
			`/edocs/${r.id}`,
			env.receipts.apiKey,
		]);
		expect([file.method, file.path, file.headers.host]).toEqual([
			'GET',
			`/ver/${r.id}/pdf`,
			env.filesOrigin.replace('http://', ''),
		]);
		expect(file.headers['x-key']).toBeUndefined();
		expect(file.headers['x-password']).toBeUndefined();
		const [item] = result.output('Receipts');
		expect(item.json).toEqual({
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: 'AUTORIZADO',
			file: 'ride',
			url: `${env.filesOrigin}/receipts/ver/${r.id}/pdf`,
			fileName: `${r.clave_acceso}.pdf`,
			mimeType: 'application/pdf',
			fileSize: env.receipts.file(r, 'pdf').length,
		});
		expect(item.binary?.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: `${r.clave_acceso}.pdf`,
			fileExtension: 'pdf',
		});
		expect(
			Buffer.from(
				/** @type {NonNullable<typeof item.binary>} */ (item.binary).data.data,
				'base64',
			).equals(env.receipts.file(r, 'pdf')),
		).toBe(true);
	});

	test('the authorized XML into a chosen binary field', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		const result = await download(r.id, 'xml', { binaryPropertyName: 'xml' });
		expect(result.error).toBeUndefined();
		expect(env.calls()[1].path).toBe(`/ver/${r.id}/xml`);
		const [item] = result.output('Receipts');
		expect(item.binary?.xml).toMatchObject({
			mimeType: 'application/xml',
			fileName: `${r.clave_acceso}.xml`,
		});
		expect(
			Buffer.from(
				/** @type {NonNullable<typeof item.binary>} */ (item.binary).xml.data,
				'base64',
			).toString(),
		).toContain(`<claveAcceso>${r.clave_acceso}</claveAcceso>`);
	});

	test('a file address on the Base URL’s own host gets the API key', async () => {
		env.receipts.filesBaseUrl = env.server.url('receipts');
		env.receipts.filesRequireKey = true;
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await download(r.id, 'ride');
		expect(result.error).toBeUndefined();
		expect(env.calls()[1].headers['x-key']).toBe(env.receipts.apiKey);
	});

	test('another host that wants a key is refused with words that say no key was sent', async () => {
		env.receipts.filesRequireKey = true;
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await download(r.id, 'ride');
		expect(env.calls()[1].headers['x-key']).toBeUndefined();
		expect(result.error?.message).toBe(
			`[item 1] Could not download the printable form (RIDE) of receipt ${r.id} from ${env.filesOrigin}: HTTP 401 to a request without the API key`,
		);
		expect(result.error?.description).toMatch(
			/the API key was not sent there \(it is never sent to another host\)/,
		);
	});

	test('an HTML page instead of the PDF (a login wall) is an error, not a broken file', async () => {
		env.receipts.filesServeLoginPage = true;
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		const result = await download(r.id, 'ride');
		expect(result.error?.message).toBe(
			`[item 1] The printable form (RIDE) of receipt ${r.id} could not be downloaded: the answer is not a PDF (content-type text/html; charset=utf-8, starting with "‹!DOCTYPE html>‹html")`,
		);
		const xml = await download(r.id, 'xml');
		expect(xml.error?.message).toMatch(/the answer is not XML \(content-type text\/html/);
	});

	test('a receipt that is not authorized yet is downloaded, with a warning', async () => {
		env.receipts.advanceOnRead = false;
		const r = env.receipts.seed('invoice', invoiceBody(), 'RECIBIDO');
		const result = await download(r.id, 'ride');
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			'estado: the receipt is RECIBIDO, not AUTORIZADO: this printable form (RIDE) is not an authorized tax document',
		]);
	});

	test('a receipt without the address says so', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			status: 200,
			body: { id: 'abc', estado: 'CREADO', url_formato_impresion: null },
			times: 1,
		});
		const result = await download('abc', 'ride');
		expect(env.calls()).toHaveLength(1);
		expect(result.error?.message).toBe(
			'[item 1] Receipt abc has no printable form (RIDE) to download: its url_formato_impresion is empty',
		);
	});

	test('reads are retried: a 503 from the file host, then the file', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({ service: 'receipts', method: 'GET', path: '/ver/', status: 503, times: 1 });
		const result = await download(r.id, 'ride');
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => c.path)).toEqual([
			`/edocs/${r.id}`,
			`/ver/${r.id}/pdf`,
			`/ver/${r.id}/pdf`,
		]);
	});

	test('many receipts at once, output in input order', async () => {
		const ids = Array.from(
			{ length: 5 },
			() => env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO').id,
		);
		const result = await env.run(
			{
				resource: 'document',
				operation: 'download',
				receiptId: '={{ $json.id }}',
				file: 'xml',
				options: { parallelRequests: 3 },
			},
			ids.map((id) => ({ id })),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts').map((i) => i.json.id)).toEqual(ids);
		expect(result.output('Receipts').map((i) => i.pairedItem)).toEqual(
			ids.map((_, item) => ({ item })),
		);
	});
});

describe('catalog dropdowns (loadOptions through n8n-core’s LoadOptionsContext)', () => {
	const context = (parameters, path = 'parameters') =>
		env.engine.loadOptionsContext(
			workflowWith({
				nodeType: 'receipts',
				credentialType: 'receiptsApi',
				parameters,
				name: 'Receipts',
			}),
			'Receipts',
			path,
		);
	const load = (method, parameters = {}, path) =>
		/** @type {NonNullable<NonNullable<typeof node.methods>['loadOptions']>} */ (
			/** @type {NonNullable<typeof node.methods>} */ (node.methods).loadOptions
		)[method].call(context(parameters, path));

	test('identification and document types come from the service’s catalogs, with X-Key', async () => {
		expect(await load('getIdTypes')).toEqual(
			expect.arrayContaining([
				{ name: 'RUC (04)', value: '04' },
				{ name: 'CEDULA (05)', value: '05' },
			]),
		);
		expect((await load('getDocumentTypes')).map((o) => o.value)).toEqual([
			'01',
			'03',
			'04',
			'05',
			'06',
			'07',
		]);
		expect(env.calls().map((c) => [c.path, c.headers['x-key'], c.headers['x-password']])).toEqual([
			['/catalog/id-types', env.receipts.apiKey, undefined],
			['/catalog/document-types', env.receipts.apiKey, undefined],
		]);
	});

	test('percentage codes follow the tax type chosen next to the field', async () => {
		const parameters = {
			resource: 'invoice',
			operation: 'issue',
			inputMode: 'fields',
			totalTaxes: { tax: [{ codigo: '5' }] },
			lineItems: { item: [{ tax_codigo: '3' }] },
		};
		expect(
			await load('getSalesTaxRates', parameters, 'parameters.totalTaxes.tax[0].codigo_porcentaje'),
		).toEqual([{ name: 'IRBPNR (5001)', value: '5001' }]);
		expect(
			await load(
				'getSalesTaxRates',
				parameters,
				'parameters.lineItems.item[0].tax_codigo_porcentaje',
			),
		).toEqual([{ name: 'ICE CIGARRILLOS RUBIOS (3011)', value: '3011' }]);
		const retention = {
			resource: 'retention',
			operation: 'issue',
			inputMode: 'fields',
			items: { item: [{ codigo: '2' }, {}] },
		};
		expect(
			(
				await load('getWithholdingRates', retention, 'parameters.items.item[0].codigo_porcentaje')
			).map((o) => o.value),
		).toEqual(['', '2', '1', '7', '9', '10', '8']);
		// No tax type chosen yet: income tax, the first one offered. The code's empty default is a choice too.
		expect(
			(
				await load('getWithholdingRates', retention, 'parameters.items.item[1].codigo_porcentaje')
			).map((o) => o.value),
		).toEqual(['', '312', '303']);
		expect(env.catalogReads().map((c) => c.path)).toEqual([
			'/catalog/sales-tax-rates/5',
			'/catalog/sales-tax-rates/3',
			'/catalog/withholdings-tax-rates/2',
			'/catalog/withholdings-tax-rates/1',
		]);
	});

	test('when the catalog cannot be read (refused key), the built-in list, each entry saying so', async () => {
		env.setCredential({ apiKey: 'rk_wrong' });
		const options = await load('getIdTypes');
		expect(options.map((o) => o.value)).toEqual(['04', '05', '06', '07', '08', '09']);
		expect(options.every((o) => /built-in list/.test(String(o.description)))).toBe(true);
		const vat = await load(
			'getSalesTaxRates',
			{ totalTaxes: { tax: [{ codigo: '2' }] } },
			'parameters.totalTaxes.tax[0].codigo_porcentaje',
		);
		expect(vat.map((o) => o.value)).toEqual(['0', '2', '3', '4', '5', '6', '7', '8', '10']);
	});

	test('when the service is down, or has no such catalog, the built-in list too', async () => {
		env.server.fail({ service: 'receipts', method: 'GET', status: 500, times: 10 });
		expect((await load('getDocumentTypes')).map((o) => o.value)).toEqual([
			'01',
			'03',
			'04',
			'05',
			'06',
			'07',
		]);
		env.server.clear();
		const isd = await load(
			'getWithholdingRates',
			{ items: { item: [{ codigo: '6' }] } },
			'parameters.items.item[0].codigo_porcentaje',
		);
		expect(isd.slice(1)).toEqual([{ name: 'RETENCIÓN ISD 5% (4580)', value: '4580' }]);
		expect(isd[0]).toMatchObject({ name: 'Not Chosen Yet (Required)', value: '' });
		const unknown = await load(
			'getWithholdingRates',
			{ items: { item: [{ codigo: '9' }] } },
			'parameters.items.item[0].codigo_porcentaje',
		);
		expect(unknown.map((o) => o.value)).toEqual(['']);
	}, 20000);

	test('an expression in the tax type is not sent to the catalog: the default type is used', async () => {
		await load(
			'getSalesTaxRates',
			{ totalTaxes: { tax: [{ codigo: '={{ $json.tax }}' }] } },
			'parameters.totalTaxes.tax[0].codigo_porcentaje',
		);
		expect(env.catalogReads().map((c) => c.path)).toEqual(['/catalog/sales-tax-rates/2']);
	});

	test('every code field that takes a catalog code offers the dropdown and still takes an expression', () => {
		const methods = /** @type {Map<string, string[]>} */ (new Map());
		const walk = (props, where) => {
			for (const p of props) {
				const method = /** @type {string | undefined} */ (p.typeOptions?.loadOptionsMethod);
				if (method) {
					expect(p.noDataExpression).not.toBe(true);
					methods.set(`${where}${p.name}`, [...(methods.get(`${where}${p.name}`) ?? []), method]);
				}
				if (Array.isArray(p.options)) walk(/** @type {never} */ (p.options), `${where}${p.name}.`);
				if (Array.isArray(p.values)) walk(/** @type {never} */ (p.values), `${where}${p.name}.`);
			}
		};
		walk(/** @type {never} */ (node.description.properties), '');
		const named = (name) => [
			...new Set(
				[...methods.entries()].filter(([path]) => path.endsWith(name)).flatMap(([, m]) => m),
			),
		];
		// Version 2's ID Type offers "From the Identification" first; a waybill recipient's document, "None".
		expect(named('tipo_identificacion').sort()).toEqual(['getIdTypes', 'getIdTypesOrInferred']);
		expect(named('tipo_documento_sustento').sort()).toEqual([
			'getDocumentTypes',
			'getDocumentTypesOrNone',
		]);
		expect(named('tipo_documento_modificado')).toEqual(['getDocumentTypes']);
		expect(named('codigo_porcentaje').sort()).toEqual(['getSalesTaxRates', 'getWithholdingRates']);
		for (const path of [
			'comprador.details.tipo_identificacion',
			'sujeto.details.tipo_identificacion',
			'proveedor.details.tipo_identificacion',
			'transportista.details.tipo_identificacion',
			'destinatarios.recipient.tipo_identificacion',
		]) {
			expect(methods.has(path)).toBe(true);
		}
	});
});

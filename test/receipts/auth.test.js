/** @import { ICredentialType, IDataObject } from 'n8n-workflow' */
import { built } from '../harness/engine';
import {
	atsRetentionBody,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	jsonIssue,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

const env = useReceipts();

describe('X-Key and X-Password placement', () => {
	test('X-Key on every request; X-Password exactly on the operations that sign, never on reads or subscriptions', async () => {
		env.receipts.advanceOnRead = false;
		const waybill = env.receipts.seed('waybill', waybillBody(), 'DEVUELTO');
		const ats = env.receipts.seed('atsRetention', atsRetentionBody(), 'AUTORIZADO');
		const invoice = env.receipts.seed('invoice', invoiceBody(), 'DEVUELTO');
		const credit = env.receipts.seed('creditNote', creditNoteBody(), 'NO AUTORIZADO');
		const debit = env.receipts.seed('debitNote', debitNoteBody(), 'DEVUELTO');
		const retention = env.receipts.seed('retention', retentionBody(), 'DEVUELTO');
		const settlement = env.receipts.seed('purchaseSettlement', settlementBody(), 'DEVUELTO');
		/** @type {IDataObject[]} */
		const runs = [
			jsonIssue('atsRetention', atsRetentionBody()),
			{
				resource: 'atsRetention',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('comprobanteRetencion'),
			},
			{ resource: 'atsRetention', operation: 'get', receiptId: ats.id },
			jsonIssue('retention', retentionBody()),
			{
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('comprobanteRetencion'),
			},
			jsonIssue('waybill', waybillBody()),
			{
				resource: 'waybill',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('guiaRemision'),
			},
			{ resource: 'waybill', operation: 'get', receiptId: waybill.id },
			jsonIssue('waybill', waybillBody(), { receiptId: waybill.id }, 'reissue'),
			jsonIssue('purchaseSettlement', settlementBody()),
			jsonIssue('purchaseSettlement', settlementBody(true), {}, 'issueWithReimbursement'),
			{
				resource: 'purchaseSettlement',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('liquidacionCompra'),
			},
			{
				resource: 'document',
				operation: 'authorize',
				receiptId: ats.id,
				waitForFinalState: true,
				waitTimeout: 5,
				options: { pollInterval: 0.01 },
			},
			{ resource: 'document', operation: 'get', receiptId: ats.id },
			{
				resource: 'webhook',
				operation: 'subscribe',
				event_name: 'receipt-issued',
				webhook_url: 'https://example.com/hook',
			},
			jsonIssue('invoice', invoiceBody()),
			{ resource: 'invoice', operation: 'issueFromXml', xmlSource: 'text', xml: xmlOf('factura') },
			{ resource: 'invoice', operation: 'get', receiptId: invoice.id },
			jsonIssue('invoice', invoiceBody(), { receiptId: invoice.id }, 'reissue'),
			jsonIssue('creditNote', creditNoteBody()),
			{
				resource: 'creditNote',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('notaCredito'),
			},
			{ resource: 'creditNote', operation: 'get', receiptId: credit.id },
			jsonIssue('creditNote', creditNoteBody(), { receiptId: credit.id }, 'reissue'),
			jsonIssue('debitNote', debitNoteBody()),
			{
				resource: 'debitNote',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('notaDebito'),
			},
			{ resource: 'debitNote', operation: 'get', receiptId: debit.id },
			jsonIssue('debitNote', debitNoteBody(), { receiptId: debit.id }, 'reissue'),
			jsonIssue('retention', retentionBody(), { receiptId: retention.id }, 'reissue'),
			jsonIssue('purchaseSettlement', settlementBody(), { receiptId: settlement.id }, 'reissue'),
			{
				resource: 'document',
				operation: 'sendEmail',
				receiptId: invoice.id,
				recipients: 'ana@example.com',
			},
			{ resource: 'document', operation: 'download', receiptId: invoice.id, file: 'ride' },
		];
		for (const parameters of runs) {
			const result = await env.run(parameters);
			expect(result.error).toBeUndefined();
		}
		const seen = env
			.calls()
			.map(
				(c) =>
					`${c.method} ${c.path.replace(/[0-9a-f]{32}/, '{id}')} ${c.headers['x-password'] === undefined ? '-' : 'X-Password'}`,
			);
		expect(seen).toEqual([
			'POST /ats-retentions/issue X-Password',
			'POST /ats-retentions/issue/xml X-Password',
			'GET /ats-retentions/{id} -',
			'POST /retentions/issue X-Password',
			'POST /retentions/issue/xml X-Password',
			'POST /waybills/issue X-Password',
			'POST /waybills/issue/xml X-Password',
			'GET /waybills/{id} -',
			'POST /waybills/{id}/reissue X-Password',
			'POST /purchase-settlements/issue X-Password',
			'POST /purchase-settlements/issue X-Password',
			'POST /purchase-settlements/issue/xml X-Password',
			'POST /edocs/{id}/issue X-Password',
			'GET /edocs/{id} -',
			'POST /webhooks -',
			'POST /invoices/issue X-Password',
			'POST /invoices/issue/xml X-Password',
			'GET /invoices/{id} -',
			'POST /invoices/{id}/reissue X-Password',
			'POST /credit-notes/issue X-Password',
			'POST /credit-notes/issue/xml X-Password',
			'GET /credit-notes/{id} -',
			'POST /credit-notes/{id}/reissue X-Password',
			'POST /debit-notes/issue X-Password',
			'POST /debit-notes/issue/xml X-Password',
			'GET /debit-notes/{id} -',
			'POST /debit-notes/{id}/reissue X-Password',
			'POST /retentions/{id}/reissue X-Password',
			'POST /purchase-settlements/{id}/reissue X-Password',
			'POST /edocs/send-email/{id} -',
			'GET /edocs/{id} -',
			'GET /ver/{id}/pdf -',
		]);
		// The receipt files are on another host: neither key goes there.
		const files = env.calls().filter((c) => c.path.startsWith('/ver/'));
		expect(
			files.every(
				(c) =>
					c.headers['x-key'] === undefined &&
					c.headers.host === env.filesOrigin.replace('http://', ''),
			),
		).toBe(true);
		expect(
			env
				.calls()
				.filter((c) => !c.path.startsWith('/ver/'))
				.every((c) => c.headers['x-key'] === env.receipts.apiKey),
		).toBe(true);
		expect(
			env
				.calls()
				.filter((c) => c.headers['x-password'])
				.every((c) => c.headers['x-password'] === env.receipts.certificatePassword),
		).toBe(true);
	});

	test('a signing operation with no certificate password in the credential stops before sending', async () => {
		env.setCredential({ certificatePassword: '' });
		const result = await env.run(jsonIssue('retention', retentionBody()));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] The Receipts credential has no Certificate Password',
		);
	});

	test('reads work without a certificate password', async () => {
		env.setCredential({ certificatePassword: '' });
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: r.id });
		expect(result.error).toBeUndefined();
	});

	test('a wrong API key is reported as such and not retried', async () => {
		env.setCredential({ apiKey: 'rk_wrong_key_1234' });
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: 'abc' });
		expect(env.calls()).toHaveLength(1);
		expect(result.error?.message).toBe('[item 1] Receipts refused the API key (Invalid API key)');
		expect(result.error?.description).toMatch(/Check the API Key of the Receipts credential/);
	});
});

describe('retries', () => {
	test('a read answered 503 is retried', async () => {
		const r = env.receipts.seed('waybill', waybillBody(), 'AUTORIZADO');
		env.server.fail({ service: 'receipts', method: 'GET', status: 503, times: 1 });
		const result = await env.run({ resource: 'waybill', operation: 'get', receiptId: r.id });
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(2);
	});

	test.each([
		['answered 503', { status: 503 }],
		['cut off (connection reset)', { reset: true }],
	])(
		'an issue request %s is never re-sent: it may have reached the service',
		async (_what, fault) => {
			env.server.fail({ service: 'receipts', method: 'POST', times: 1, ...fault });
			const result = await env.run(jsonIssue('retention', retentionBody()));
			expect(env.calls()).toHaveLength(1);
			expect(result.error?.message).toMatch(
				/^\[item 1\] The retention may exist: Receipts (answered 503|could not be reached)/,
			);
			expect(result.error?.description).toMatch(
				/^The retention may have been issued: the answer was lost\. Do not issue it again before you have checked in the receipts service \(secuencial 123, series 001-002, issuer 1792146739001\)/,
			);
		},
	);

	test('an authorize request answered 502 is not re-sent either', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'CREADO');
		env.server.fail({ service: 'receipts', method: 'POST', status: 502, times: 1 });
		await env.run({ resource: 'document', operation: 'authorize', receiptId: r.id });
		expect(env.calls()).toHaveLength(1);
	});
});

describe('secrets stay out of outputs and errors', () => {
	test('an answer carrying api-key / certificate-password is output with them masked', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			times: 1,
			status: 200,
			body: {
				id: 'x',
				estado: 'CREADO',
				'api-key': env.receipts.apiKey,
				'certificate-password': null,
				firma: { result: 'error', error: 'Contraseña incorrecta', status: 400 },
			},
		});
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: 'x' });
		const out = result.output('Receipts')[0].json;
		expect(out).toEqual({
			id: 'x',
			estado: 'CREADO',
			'api-key': '[redacted]',
			'certificate-password': null,
			firma: { result: 'error', error: 'Contraseña incorrecta', status: 400 },
			rejected: true,
			reason: 'The receipts service could not sign the receipt: Contraseña incorrecta (status 400)',
			next_step:
				'Correct the Certificate Password of the Receipts credential, then sign it again with Document → Authorize (ID x); do not issue it again.',
			sri_messages: [],
		});
		expect(JSON.stringify(out)).not.toContain(env.receipts.apiKey);
	});

	test('an error body echoing the key or the password does not carry them to the user', async () => {
		const { apiKey, certificatePassword } = env.receipts;
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			times: 1,
			status: 400,
			body: {
				error: `key ${apiKey} with password ${certificatePassword} refused`,
				'api-key': apiKey,
				mensajes: [
					{ identificador: '1', mensaje: `X-Password ${certificatePassword}`, tipo: 'ERROR' },
				],
			},
		});
		const result = await env.run(jsonIssue('retention', retentionBody()));
		expect(result.error?.message).toBe(
			'[item 1] Receipts rejected the request: key [redacted] with password [redacted] refused',
		);
		const everything = JSON.stringify({
			message: result.error?.message,
			description: result.error?.description,
			error: result.error,
			run: result.run.data,
		});
		expect(everything).not.toContain(apiKey);
		expect(everything).not.toContain(certificatePassword);
	});

	test('the request headers never appear in the run data', async () => {
		await env.run(jsonIssue('retention', retentionBody()));
		const run = await env.run({ resource: 'document', operation: 'get', receiptId: 'missing' });
		const everything = JSON.stringify(run.run.data);
		expect(everything).not.toContain(env.receipts.apiKey);
		expect(everything).not.toContain(env.receipts.certificatePassword);
	});
});

describe('credential test', () => {
	const type = built('credentials/ReceiptsApi.credentials', 'ReceiptsApi');

	test('the Test button reads the identification-type catalog with X-Key only; right key: OK (a trailing slash of the Base URL does not matter)', async () => {
		const result = await env.engine.testCredential('receiptsApi', {
			baseUrl: `${env.server.url('receipts')}/`,
			apiKey: env.receipts.apiKey,
			certificatePassword: env.receipts.certificatePassword,
		});
		expect(result).toEqual({
			status: 'OK',
			message: 'Connection successful: Receipts accepted the API key.',
		});
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['GET', '/catalog/id-types']);
		expect(call.headers['x-key']).toBe(env.receipts.apiKey);
		expect(call.headers['x-password']).toBeUndefined();
	});

	test('wrong key: a message that says the key was refused and what to check', async () => {
		expect(
			await env.engine.testCredential('receiptsApi', {
				baseUrl: env.server.url('receipts'),
				apiKey: 'nope-nope',
			}),
		).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^Receipts refused the API key \(.*\) \(GET \/catalog\/id-types, HTTP 401\)\. Check the API Key of the Receipts credential/,
			),
		});
	});

	test('a Base URL that is not the service: 404 and a message that says so', async () => {
		const result = await env.engine.testCredential('receiptsApi', {
			baseUrl: `${env.server.url('receipts')}/nothing-here`,
			apiKey: env.receipts.apiKey,
		});
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Receipts: .*\(GET \/catalog\/id-types, HTTP 404\)/),
		});
	});

	test('the credential applies only X-Key (X-Password is added by the node on signing operations)', async () => {
		const authenticate = type.authenticate;
		if (typeof authenticate !== 'function') throw new Error('authenticate is not a function');
		const credentials = {
			baseUrl: 'https://api.example',
			apiKey: 'the-key',
			certificatePassword: 'the-password',
			accessKeySecret: 'the-secret',
		};
		const options = await authenticate(credentials, {
			url: '/edocs/1',
			headers: { Accept: 'application/json' },
		});
		expect(options).toEqual({
			url: '/edocs/1',
			headers: { Accept: 'application/json', 'X-Key': 'the-key' },
		});
		expect(type.properties.map((p) => [p.name, p.typeOptions?.password === true])).toEqual([
			['baseUrl', false],
			['apiKey', true],
			['certificatePassword', true],
			['accessKeySecret', true],
			...[
				'issuerNotice',
				'issuerRuc',
				'issuerLegalName',
				'issuerTradeName',
				'issuerAddress',
				'issuerEstablishment',
				'issuerEmissionPoint',
				'issuerEstablishmentAddress',
				'issuerKeepsAccounting',
				'issuerSpecialTaxpayer',
				'issuerRegime',
			].map((name) => [name, false]),
		]);
	});
});

describe('service-side outcomes', () => {
	test('a wrong certificate password: the receipt is stored but cannot be signed (CREADO with a firma failure): the item stops and says so', async () => {
		env.setCredential({ certificatePassword: 'not-the-password' });
		const result = await env.run(jsonIssue('waybill', waybillBody()));
		expect(env.calls()[0].headers['x-password']).toBe('not-the-password');
		const [stored] = env.receipts.receipts.values();
		const id = stored.id;
		expect(result.error?.message).toBe(
			`[item 1] Receipt ID ${id}, clave_acceso ${stored.clave_acceso} could not be signed: the receipts service refused the Certificate Password of the Receipts credential (Contraseña de la firma electrónica incorrecta (status 400))`,
		);
		expect(result.error?.description).toMatch(
			new RegExp(
				`^Correct the Certificate Password in the Receipts credential .* Document → Authorize \\(ID ${id}\\)\\. It exists in state CREADO: do not issue it again\\.`,
			),
		);
		expect(JSON.stringify(result.error)).not.toContain('not-the-password');
		env.setCredential();
		const got = await env.run({ resource: 'waybill', operation: 'get', receiptId: id });
		expect(got.output('Receipts')[0].json).toMatchObject({
			estado: 'CREADO',
			firma: { status: 400 },
		});
		expect(env.receipts.payload(id)).toMatchObject({
			firma: { result: 'error', status: 400 },
			'certificate-password': null,
		});
	});

	test('a refusal by the service shows its message and the tax-authority messages', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			times: 1,
			status: 400,
			body: {
				error: 'Comprobante inválido',
				mensajes: [
					{
						identificador: '35',
						mensaje: 'ARCHIVO NO CUMPLE ESTRUCTURA XML',
						tipo: 'ERROR',
						informacion_adicional: 'fechaEmision',
					},
				],
			},
		});
		const result = await env.run(jsonIssue('retention', retentionBody()));
		expect(result.error?.message).toBe(
			'[item 1] Receipts rejected the request: Comprobante inválido',
		);
		expect(result.error?.description).toContain(
			'- [ERROR 35] ARCHIVO NO CUMPLE ESTRUCTURA XML (fechaEmision)',
		);
		expect(result.error?.description).toContain('POST /retentions/issue, HTTP 400');
	});

	test('a party e-mail is not format-checked (the spec gives no format); the carrier’s is length-checked', async () => {
		const body = retentionBody();
		/** @type {IDataObject} */ (body.sujeto).email = 'pagos@ejemplo.ec, contabilidad@ejemplo.ec';
		const result = await env.run(jsonIssue('retention', body));
		expect(result.error).toBeUndefined();
	});
});

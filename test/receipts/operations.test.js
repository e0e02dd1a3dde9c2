/** @import { IDataObject } from 'n8n-workflow' */
import {
	atsRetentionBody,
	jsonIssue,
	KNOWN_ACCESS_KEY,
	onlyCall,
	outcomeFields,
	plain,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

const env = useReceipts();

const only = () => onlyCall(env);

describe('Issue operations (JSON input)', () => {
	test.each([
		['atsRetention', 'issue', '/ats-retentions/issue', atsRetentionBody()],
		['retention', 'issue', '/retentions/issue', retentionBody()],
		['waybill', 'issue', '/waybills/issue', waybillBody()],
		['purchaseSettlement', 'issue', '/purchase-settlements/issue', settlementBody()],
		[
			'purchaseSettlement',
			'issueWithReimbursement',
			'/purchase-settlements/issue',
			settlementBody(true),
		],
	])(
		'%s %s POSTs the body with X-Key and X-Password and outputs id and clave_acceso',
		async (resource, operation, path, body) => {
			const result = await env.run(jsonIssue(resource, body, {}, operation));
			expect(result.error).toBeUndefined();
			const call = only();
			expect([call.method, call.path]).toEqual(['POST', path]);
			expect(call.headers['x-key']).toBe(env.receipts.apiKey);
			expect(call.headers['x-password']).toBe(env.receipts.certificatePassword);
			expect(call.headers['content-type']).toMatch(/application\/json/);
			expect(call.body).toEqual(plain(body));
			const [item] = result.output('Receipts');
			const stored = [...env.receipts.receipts.values()][0];
			const numero = `001-002-${String(body.secuencial ?? body.secuencia).padStart(9, '0')}`;
			expect(item.json).toEqual({
				...plain(body),
				id: stored.id,
				clave_acceso: stored.clave_acceso,
				estado: 'CREADO',
				numero,
				...outcomeFields(stored.id),
			});
			expect(item.json.clave_acceso).toMatch(/^\d{49}$/);
			expect(item.pairedItem).toEqual({ item: 0 });
		},
	);

	test('a supplied valid clave_acceso is sent and kept', async () => {
		const result = await env.run(
			jsonIssue('retention', { ...retentionBody(), clave_acceso: KNOWN_ACCESS_KEY }),
		);
		expect(/** @type {IDataObject} */ (only().body).clave_acceso).toBe(KNOWN_ACCESS_KEY);
		expect(result.output('Receipts')[0].json.clave_acceso).toBe(KNOWN_ACCESS_KEY);
	});

	test('JSON mode takes expressions: one receipt per input item, each paired with its item', async () => {
		const rows = [
			{ seq: 10, ruc: '1710034065001' },
			{ seq: 11, ruc: '1790016919001' },
		];
		// How users write it in the editor: the JSON text with {{}} placeholders.
		const text = JSON.stringify(
			{
				...retentionBody(),
				secuencial: 0,
				sujeto: { .../** @type {IDataObject} */ (retentionBody().sujeto), identificacion: 'RUC' },
			},
			null,
			2,
		);
		const jsonBody = `=${text.replace('"secuencial": 0', '"secuencial": {{ $json.seq }}').replace('"identificacion": "RUC"', '"identificacion": "{{ $json.ruc }}"')}`;
		const result = await env.run(
			{ resource: 'retention', operation: 'issue', inputMode: 'json', jsonBody },
			rows,
		);
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => /** @type {IDataObject} */ (c.body).secuencial)).toEqual([
			10, 11,
		]);
		expect(
			env
				.calls()
				.map(
					(c) =>
						/** @type {IDataObject} */ (/** @type {IDataObject} */ (c.body).sujeto).identificacion,
				),
		).toEqual(['1710034065001', '1790016919001']);
		expect(result.output('Receipts').map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('warnings (a RUC failing its checksum) are in the output, and the receipt is still sent', async () => {
		const result = await env.run(
			jsonIssue('retention', {
				...retentionBody(),
				emisor: { .../** @type {IDataObject} */ (retentionBody().emisor), ruc: '1792146738001' },
			}),
		);
		expect(env.calls()).toHaveLength(1);
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			'Issuer › RUC (emisor.ruc): RUC (company) check digit is 8 but 9 was expected; sent anyway, verify the RUC',
		]);
	});

	test('the obsolete informacion_adicional is passed through on a waybill (with a warning)', async () => {
		const result = await env.run(
			jsonIssue('waybill', { ...waybillBody(), informacion_adicional: { Chofer: 'Luis' } }),
		);
		expect(/** @type {IDataObject} */ (only().body).informacion_adicional).toEqual({
			Chofer: 'Luis',
		});
		expect(String(/** @type {string[]} */ (result.output('Receipts')[0].json.warnings)[0])).toMatch(
			/^Additional Information \(informacion_adicional\) is obsolete/,
		);
	});

	test('Simplify keeps the key fields', async () => {
		const result = await env.run(jsonIssue('retention', retentionBody(), { simplify: true }));
		const stored = [...env.receipts.receipts.values()][0];
		expect(result.output('Receipts')[0].json).toEqual({
			id: stored.id,
			clave_acceso: stored.clave_acceso,
			estado: 'CREADO',
			numero: '001-002-000000123',
			...outcomeFields(stored.id),
		});
	});
});

describe('Issue operations (Fields input)', () => {
	const emisor = {
		details: {
			ruc: '1792146739001',
			razon_social: 'Distribuidora Andina S.A.',
			obligado_contabilidad: true,
			establecimiento_codigo: '001',
			punto_emision: '002',
		},
	};
	const expectedEmisor = {
		ruc: '1792146739001',
		razon_social: 'Distribuidora Andina S.A.',
		obligado_contabilidad: true,
		establecimiento: { codigo: '001', punto_emision: '002' },
	};

	test('Retention from fields builds the same body shape', async () => {
		const result = await env.run({
			resource: 'retention',
			operation: 'issue',
			inputMode: 'fields',
			ambiente: 1,
			tipo_emision: 1,
			secuencial: '123',
			periodo_fiscal: '03/2026',
			emisor,
			sujeto: {
				details: {
					identificacion: '1710034065001',
					tipo_identificacion: '04',
					razon_social: 'Juan Pérez',
				},
			},
			items: {
				item: [
					{
						codigo: '1',
						codigo_porcentaje: '312',
						base_imponible: 100,
						porcentaje: 0,
						valor_retenido: 1.75,
						fecha_emision_documento_sustento: '2026-03-15',
						numero_documento_sustento: '001-001-000000045',
						tipo_documento_sustento: '01',
					},
				],
			},
			informacion_adicional: { entry: [{ name: 'Pedido', value: 'PO-77' }] },
			additionalFields: { fecha_emision: '2026-03-31' },
		});
		expect(result.error).toBeUndefined();
		expect(only().body).toEqual({
			ambiente: 1,
			tipo_emision: 1,
			secuencial: 123,
			fecha_emision: '2026-03-31',
			periodo_fiscal: '03/2026',
			emisor: expectedEmisor,
			sujeto: {
				identificacion: '1710034065001',
				tipo_identificacion: '04',
				razon_social: 'Juan Pérez',
			},
			items: [
				{
					codigo: '1',
					codigo_porcentaje: '312',
					base_imponible: 100,
					valor_retenido: 1.75,
					fecha_emision_documento_sustento: '2026-03-15',
					numero_documento_sustento: '001-001-000000045',
					tipo_documento_sustento: '01',
				},
			],
			informacion_adicional: { Pedido: 'PO-77' },
		});
	});

	test('Waybill from fields puts each item under its recipient', async () => {
		const result = await env.run({
			resource: 'waybill',
			operation: 'issue',
			inputMode: 'fields',
			ambiente: 1,
			tipo_emision: 1,
			secuencial: '45',
			emisor,
			fecha_inicio_transporte: '2026-03-20',
			fecha_fin_transporte: '2026-03-21',
			direccion_partida: 'Bodega Norte',
			transportista: {
				details: {
					identificacion: '1710034065',
					tipo_identificacion: '05',
					razon_social: 'Transportes Rápidos',
					placa: 'PBA-1234',
				},
			},
			destinatarios: {
				recipient: [
					{
						identificacion: '1790016919001',
						tipo_identificacion: '04',
						razon_social: 'Corporación Ejemplo',
						direccion: 'Guayaquil',
						motivo_traslado: 'Venta',
					},
					{
						identificacion: '1710034065001',
						tipo_identificacion: '04',
						razon_social: 'Juan Pérez',
						direccion: 'Cuenca',
						motivo_traslado: 'Venta',
					},
				],
			},
			waybillItems: {
				item: [
					{ recipient: 1, descripcion: 'Café', codigo_principal: 'CAF-001', cantidad: 12.5 },
					{ recipient: 2, descripcion: 'Cacao', codigo_principal: 'CAC-001', cantidad: 3 },
					{ recipient: 1, descripcion: 'Té', codigo_principal: 'TE-001', cantidad: 1 },
				],
			},
			info_adicional: { entry: [{ nombre: 'Chofer', valor: 'Luis Mora' }] },
		});
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (only().body);
		expect(body.secuencial).toBe('45');
		expect(
			/** @type {IDataObject[]} */ (body.destinatarios).map((d) =>
				/** @type {IDataObject[]} */ (d.items).map((i) => i.codigo_principal),
			),
		).toEqual([['CAF-001', 'TE-001'], ['CAC-001']]);
		expect(body.transportista).toEqual({
			identificacion: '1710034065',
			tipo_identificacion: '05',
			razon_social: 'Transportes Rápidos',
			placa: 'PBA-1234',
		});
		expect(body.info_adicional).toEqual([{ nombre: 'Chofer', valor: 'Luis Mora' }]);
	});

	test('Purchase Settlement With Reimbursement from fields: item tax of the no-object kind, reembolso from JSON', async () => {
		const reembolso = settlementBody(true).reembolso;
		const result = await env.run({
			resource: 'purchaseSettlement',
			operation: 'issueWithReimbursement',
			inputMode: 'fields',
			ambiente: 1,
			tipo_emision: 1,
			secuencial: '9',
			moneda: 'USD',
			emisor,
			proveedor: {
				details: {
					identificacion: '1710034065',
					tipo_identificacion: '05',
					razon_social: 'María Quispe',
				},
			},
			settlementItems: {
				item: [
					{
						descripcion: 'Gastos de viaje',
						codigo_principal: 'VIA-1',
						cantidad: 1,
						precio_unitario: 100,
						descuento: 0,
						precio_total_sin_impuestos: 100,
						tax_codigo: '2',
						tax_codigo_porcentaje: '6',
						tax_tarifa: 0,
						tax_base_imponible: 100,
						tax_valor: 0,
					},
				],
			},
			totales: { details: { total_sin_impuestos: 100, descuento: 0, importe_total: 100 } },
			totalTaxes: { tax: [{ codigo: '2', codigo_porcentaje: '6', base_imponible: 100, valor: 0 }] },
			pagos: { payment: [{ forma_pago: '01', total: 100 }] },
			reembolso: JSON.stringify(reembolso),
			additionalFields: { maquina_marca: 'Epson', maquina_serie: 'X1' },
		});
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (only().body);
		expect(env.calls()[0].path).toBe('/purchase-settlements/issue');
		expect(/** @type {IDataObject[]} */ (body.items)[0].impuestos).toEqual([
			{ codigo: '2', codigo_porcentaje: '6', tarifa: 0, base_imponible: 100, valor: 0 },
		]);
		expect(body.reembolso).toEqual(reembolso);
		expect(body.maquina_fiscal).toEqual({ marca: 'Epson', serie: 'X1' });
		expect(body.totales).toEqual({
			total_sin_impuestos: 100,
			descuento: 0,
			importe_total: 100,
			impuestos: [{ codigo: '2', codigo_porcentaje: '6', base_imponible: 100, valor: 0 }],
		});
		expect(result.output('Receipts')[0].json.warnings).toBeUndefined();
	});

	test('ATS Retention from fields takes documentos_soporte as JSON', async () => {
		const ats = atsRetentionBody();
		const result = await env.run({
			resource: 'atsRetention',
			operation: 'issue',
			inputMode: 'fields',
			ambiente: 1,
			tipo_emision: 1,
			secuencia: '77',
			periodo_fiscal: '03/2026',
			emisor,
			sujeto: {
				details: {
					identificacion: '1790016919001',
					tipo_identificacion: '04',
					razon_social: 'Corporación Ejemplo',
				},
			},
			documentos_soporte: JSON.stringify(ats.documentos_soporte),
			info_adicional: { entry: [{ nombre: 'Pedido', descripcion: 'PO-77' }] },
		});
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (only().body);
		expect(body.secuencia).toBe(77);
		expect(body.documentos_soporte).toEqual(ats.documentos_soporte);
		expect(body.info_adicional).toEqual([{ nombre: 'Pedido', descripcion: 'PO-77' }]);
	});
});

describe('Issue From XML', () => {
	test.each([
		['atsRetention', '/ats-retentions/issue/xml', 'comprobanteRetencion'],
		['retention', '/retentions/issue/xml', 'comprobanteRetencion'],
		['waybill', '/waybills/issue/xml', 'guiaRemision'],
		['purchaseSettlement', '/purchase-settlements/issue/xml', 'liquidacionCompra'],
	])(
		'%s from text POSTs {xml} with X-Password and outputs id, clave_acceso, es_valida',
		async (resource, path, root) => {
			const xml = xmlOf(root, KNOWN_ACCESS_KEY);
			const result = await env.run({ resource, operation: 'issueFromXml', xmlSource: 'text', xml });
			expect(result.error).toBeUndefined();
			const call = only();
			expect([call.method, call.path, call.headers['x-password']]).toEqual([
				'POST',
				path,
				env.receipts.certificatePassword,
			]);
			expect(call.body).toEqual({ xml });
			const out = result.output('Receipts')[0].json;
			expect(out).toMatchObject({
				clave_acceso: KNOWN_ACCESS_KEY,
				es_valida: true,
				secuencial: '000000123',
			});
			expect(out.id).toBe([...env.receipts.receipts.keys()][0]);
			if (resource === 'purchaseSettlement')
				expect(out).toMatchObject({
					anulado: false,
					pre_autorizado: false,
					numero: expect.any(String),
				});
		},
	);

	test('from a binary property of the input item', async () => {
		const xml = xmlOf('guiaRemision');
		const workflow = env.engine;
		const { workflowWith } = await import('../harness/engine');
		const wf = workflowWith({
			nodeType: 'receipts',
			credentialType: 'receiptsApi',
			name: 'Receipts',
			parameters: {
				resource: 'waybill',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'file',
			},
		});
		// The Code stand-in emits an item carrying the XML as binary data.
		const code = /** @type {any} */ (wf.nodes.find((n) => n.name === 'Input'));
		code.parameters = {
			jsCode: `return [{ json: {}, binary: { file: { data: ${JSON.stringify(Buffer.from(xml).toString('base64'))}, mimeType: 'application/xml', fileName: 'guia.xml' } } }];`,
		};
		const result = await workflow.run(wf);
		expect(result.error).toBeUndefined();
		expect(only().body).toEqual({ xml });
		expect(result.output('Receipts')[0].json).toMatchObject({
			es_valida: true,
			clave_acceso: expect.stringMatching(/^\d{49}$/),
		});
	});
});

describe('Issue From XML: a file is read as its bytes say', () => {
	/** Runs Waybill → Issue From XML on an input item whose binary field `file` holds `bytes`. */
	const issueFile = async (bytes) => {
		const { workflowWith } = await import('../harness/engine');
		const wf = workflowWith({
			nodeType: 'receipts',
			credentialType: 'receiptsApi',
			name: 'Receipts',
			parameters: {
				resource: 'waybill',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'file',
			},
		});
		const code = /** @type {any} */ (wf.nodes.find((n) => n.name === 'Input'));
		code.parameters = {
			jsCode: `return [{ json: {}, binary: { file: { data: ${JSON.stringify(bytes.toString('base64'))}, mimeType: 'application/xml', fileName: 'guia.xml' } } }];`,
		};
		return await env.engine.run(wf);
	};
	/** The waybill of xmlOf with the issuer named `name`, declared in `encoding`. */
	const waybill = (name, encoding) =>
		xmlOf('guiaRemision')
			.replace('encoding="UTF-8"', `encoding="${encoding}"`)
			.replace('Distribuidora Andina S.A.', name);

	test.each(
		/** @type {Array<[string, BufferEncoding]>} */ ([
			['ISO-8859-1', 'latin1'],
			['windows-1252', 'latin1'],
		]),
	)(
		'a receipt written in %s reaches the service with its characters, declared as UTF-8',
		async (encoding, nodeEncoding) => {
			const written = waybill('Peñón Cía. Ltda.', encoding);
			const result = await issueFile(Buffer.from(written, nodeEncoding));
			expect(result.error).toBeUndefined();
			const sent = /** @type {{ xml: string }} */ (only().body).xml;
			// The JSON body is UTF-8: the characters the file holds, and a declaration that no longer says otherwise.
			expect(sent).toBe(waybill('Peñón Cía. Ltda.', 'UTF-8'));
			expect([...env.receipts.receipts.values()][0].body.emisor).toMatchObject({
				razon_social: 'Peñón Cía. Ltda.',
			});
		},
	);

	test('windows-1252 characters of 0x80–0x9F are read as windows-1252 writes them (“ ” €)', async () => {
		const written = Buffer.concat([
			Buffer.from(waybill('Andina ', 'windows-1252').split('Andina ')[0], 'latin1'),
			Buffer.from([0x93]),
			Buffer.from('Andina', 'latin1'),
			Buffer.from([0x94, 0x20, 0x80]),
			Buffer.from(waybill('Andina ', 'windows-1252').split('Andina ')[1], 'latin1'),
		]);
		const result = await issueFile(written);
		expect(result.error).toBeUndefined();
		expect(/** @type {{ xml: string }} */ (only().body).xml).toBe(waybill('“Andina” €', 'UTF-8'));
	});

	test('a UTF-8 file with a byte-order mark is sent without it, as written', async () => {
		const written = waybill('Peñón', 'UTF-8');
		const result = await issueFile(
			Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(written)]),
		);
		expect(result.error).toBeUndefined();
		expect(only().body).toEqual({ xml: written });
	});

	test.each([
		[
			'invalid UTF-8 (an ISO-8859-1 file that declares UTF-8)',
			Buffer.from(waybill('Peñón', 'UTF-8'), 'latin1'),
			/is not valid UTF-8/,
		],
		[
			'invalid UTF-8 without a declaration',
			Buffer.from(waybill('Peñón', 'UTF-8').replace(/^<\?xml[^>]*>/, ''), 'latin1'),
			/is not valid UTF-8 \(it declares no encoding, so it must be UTF-8\)/,
		],
		['UTF-16', Buffer.from(`\ufeff${waybill('Peñón', 'UTF-16')}`, 'utf16le'), /UTF-16/],
		[
			'an encoding the reader does not know',
			Buffer.from(waybill('Peñón', 'EBCDIC-US')),
			/EBCDIC-US/,
		],
	])('%s is refused with nothing sent', async (_, bytes, reason) => {
		const result = await issueFile(bytes);
		expect(result.error?.message).toMatch(/^\[item 1\] binary\.file: /);
		expect(result.error?.message).toMatch(reason);
		expect(env.calls()).toEqual([]);
	});

	test('a file larger than the SRI takes for one receipt is refused before it is read whole', async () => {
		const big = waybill(`Andina ${'x'.repeat(330 * 1024)}`, 'UTF-8');
		const result = await issueFile(Buffer.from(big));
		expect(result.error?.message).toBe(
			"[item 1] binary.file: is larger than the SRI's limit for one receipt (320 KB)",
		);
		expect(env.calls()).toEqual([]);
	});
});

describe('Get operations', () => {
	test.each(
		/** @type {const} */ ([
			['atsRetention', 'atsRetention', '/ats-retentions'],
			['waybill', 'waybill', '/waybills'],
		]),
	)('%s Get reads the whole receipt with X-Key only', async (resource, kind, base) => {
		env.receipts.advanceOnRead = false;
		const r = env.receipts.seed(
			kind,
			kind === 'waybill' ? waybillBody() : atsRetentionBody(),
			'AUTORIZADO',
		);
		const result = await env.run({ resource, operation: 'get', receiptId: r.id });
		expect(result.error).toBeUndefined();
		const call = only();
		expect([call.method, call.path]).toEqual(['GET', `${base}/${r.id}`]);
		expect(call.headers['x-key']).toBe(env.receipts.apiKey);
		expect(call.headers['x-password']).toBeUndefined();
		expect(result.output('Receipts')[0].json).toEqual({
			...plain(env.receipts.full(r)),
			...outcomeFields(),
		});
	});

	test('Document Get reads /edocs/{id}; Simplify keeps the key fields', async () => {
		env.receipts.advanceOnRead = false;
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		const result = await env.run({
			resource: 'document',
			operation: 'get',
			receiptId: r.id,
			simplify: true,
		});
		expect(only().path).toBe(`/edocs/${r.id}`);
		expect(result.output('Receipts')[0].json).toEqual({
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: 'AUTORIZADO',
			...outcomeFields(),
			// GET /edocs/{id} carries no `numero`: it is read from the access key.
			numero: '001-002-000000123',
			autorizacion_numero: r.clave_acceso,
			autorizacion_fecha: /** @type {NonNullable<typeof r.autorizacion>} */ (r.autorizacion).fecha,
			url_formato_impresion: `${env.filesOrigin}/receipts/ver/${r.id}/pdf`,
			url_documento_electronico: `${env.filesOrigin}/receipts/ver/${r.id}/xml`,
		});
	});

	test('Get of many items runs them in parallel and keeps the order', async () => {
		env.receipts.advanceOnRead = false;
		const ids = Array.from(
			{ length: 6 },
			() => env.receipts.seed('waybill', waybillBody(), 'RECIBIDO').id,
		);
		env.server.delayMs = 30;
		const result = await env.run(
			{
				resource: 'waybill',
				operation: 'get',
				receiptId: '={{ $json.id }}',
				options: { parallelRequests: 3 },
			},
			ids.map((id) => ({ id })),
		);
		expect(result.output('Receipts').map((i) => i.json.id)).toEqual(ids);
	});

	test('an unknown ID reaches the user as a clear 404', async () => {
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: 'nope' });
		expect(result.error?.message).toBe('[item 1] Receipts: Comprobante nope no encontrado');
	});
});

describe('Document Authorize', () => {
	test('POSTs /edocs/{id}/issue with no body and X-Password, and outputs the receipt', async () => {
		const r = env.receipts.seed('waybill', waybillBody(), 'CREADO');
		const result = await env.run({ resource: 'document', operation: 'authorize', receiptId: r.id });
		expect(result.error).toBeUndefined();
		const call = only();
		expect([call.method, call.path, call.headers['x-password']]).toEqual([
			'POST',
			`/edocs/${r.id}/issue`,
			env.receipts.certificatePassword,
		]);
		expect(call.raw.length).toBe(0);
		expect(result.output('Receipts')[0].json).toMatchObject({
			id: r.id,
			tipo: '06',
			estado: 'CREADO',
			numero: '001-002-000000045',
			clave_acceso: r.clave_acceso,
			receptor: expect.any(Object),
		});
	});
});

describe('Waybill Reissue', () => {
	test.each(/** @type {const} */ (['NO AUTORIZADO', 'DEVUELTO']))(
		'a waybill in %s is corrected: POST /waybills/{id}/reissue with the new body',
		async (estado) => {
			const r = env.receipts.seed('waybill', waybillBody(), estado);
			const corrected = { ...waybillBody(), direccion_partida: 'Bodega Sur, Quito' };
			const result = await env.run(jsonIssue('waybill', corrected, { receiptId: r.id }, 'reissue'));
			expect(result.error).toBeUndefined();
			const call = only();
			expect([call.method, call.path, call.headers['x-password']]).toEqual([
				'POST',
				`/waybills/${r.id}/reissue`,
				env.receipts.certificatePassword,
			]);
			expect(call.body).toEqual(plain(corrected));
			expect(result.output('Receipts')[0].json).toMatchObject({
				id: r.id,
				clave_acceso: r.clave_acceso,
				direccion_partida: 'Bodega Sur, Quito',
			});
			expect(/** @type {any} */ (env.receipts.receipts.get(r.id)).reissues).toBe(1);
		},
	);

	test('an authorized waybill: the service refuses and the user reads why', async () => {
		const r = env.receipts.seed('waybill', waybillBody(), 'AUTORIZADO');
		const result = await env.run(
			jsonIssue('waybill', waybillBody(), { receiptId: r.id }, 'reissue'),
		);
		expect(env.calls()).toHaveLength(1);
		expect(result.error?.message).toBe(
			`[item 1] Waybill ${r.id} cannot be reissued: La guía de remisión ya se encuentra AUTORIZADA y no puede reemitirse`,
		);
		expect(result.error?.description).toMatch(
			/^Only waybills in NO AUTORIZADO or DEVUELTO can be reissued/,
		);
	});
});

describe('Webhook Subscribe', () => {
	test.each(['receipt-issued', 'issue-error'])(
		'subscribes %s with X-Key only (no X-Password: it issues nothing) and outputs the subscription',
		async (event) => {
			const result = await env.run({
				resource: 'webhook',
				operation: 'subscribe',
				event_name: event,
				webhook_url: 'https://n8n.example.com/webhook/abc',
			});
			expect(result.error).toBeUndefined();
			const call = only();
			expect([call.method, call.path, call.headers['x-key'], call.headers['x-password']]).toEqual([
				'POST',
				'/webhooks',
				env.receipts.apiKey,
				undefined,
			]);
			expect(call.body).toEqual({
				event_name: event,
				webhook_url: 'https://n8n.example.com/webhook/abc',
			});
			expect(result.output('Receipts')[0].json).toEqual({
				id: 'sub_1',
				event_name: event,
				webhook_url: 'https://n8n.example.com/webhook/abc',
			});
			expect(env.receipts.subscriptions).toHaveLength(1);
		},
	);

	test('a bad URL is refused before sending', async () => {
		const result = await env.run({
			resource: 'webhook',
			operation: 'subscribe',
			event_name: 'receipt-issued',
			webhook_url: 'ftp://x',
		});
		expect(result.error?.message).toBe('[item 1] webhook_url: "ftp://x" is not an http(s) URL');
		expect(env.calls()).toHaveLength(0);
	});
});

describe('Simulator events (used by the trigger work)', () => {
	test('deliver() POSTs the receipt with its authorization and api-key to each subscription of the event', async () => {
		const { createServer } = await import('node:http');
		/** @type {unknown[]} */
		const got = [];
		const hook = createServer((req, res) => {
			let raw = '';
			req.on('data', (c) => (raw += c));
			req.on('end', () => {
				got.push(JSON.parse(raw));
				res.end('{}');
			});
		});
		await /** @type {Promise<void>} */ (new Promise((r) => hook.listen(0, '127.0.0.1', r)));
		const url = `http://127.0.0.1:${/** @type {{ port: number }} */ (hook.address()).port}/hook`;
		await env.run({
			resource: 'webhook',
			operation: 'subscribe',
			event_name: 'receipt-issued',
			webhook_url: url,
		});
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		const results = await env.receipts.deliver('receipt-issued', r.id);
		hook.close();
		expect(results).toEqual([{ url, status: 200, body: {} }]);
		expect(got[0]).toMatchObject({
			id: r.id,
			tipo: 'retencion',
			clave_acceso: r.clave_acceso,
			'api-key': env.receipts.apiKey,
			autorizacion: { estado: 'AUTORIZADO', mensajes: [] },
		});
	});
});

describe('answers without a body', () => {
	test('an empty 201 to Subscribe still outputs what was subscribed', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/webhooks',
			times: 1,
			status: 201,
			body: '',
		});
		const result = await env.run({
			resource: 'webhook',
			operation: 'subscribe',
			event_name: 'issue-error',
			webhook_url: 'https://n8n.example.com/webhook/x',
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json).toEqual({
			event_name: 'issue-error',
			webhook_url: 'https://n8n.example.com/webhook/x',
		});
	});
});

/** @import { IDataObject, INodeProperties, INodeType } from 'n8n-workflow' */
/** @import { RunResult } from '../harness/engine' */
import { createHash, createHmac } from 'node:crypto';
import { built } from '../harness/engine';
import { accessKeyCheckDigit, splitAccessKey } from '../../nodes/shared/sri/accessKey';
import { DEV_ACCESS_KEY_SECRET } from '../simulator/main';
import {
	atsRetentionBody,
	jsonIssue,
	KNOWN_ACCESS_KEY,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

/**
 * A batch with Wait for Final State: issued one after another, then followed together (bounded), in input
 * order; the reproducible access key; the empty templates that replace sample data as defaults.
 */
const env = useReceipts();

const rowsOf = (n) => Array.from({ length: n }, (_, k) => ({ seq: 100 + k }));
const retentionFromRows = () =>
	`=${JSON.stringify({ ...retentionBody(), secuencial: 0 }).replace('"secuencial":0', '"secuencial":{{ $json.seq }}')}`;

describe('a batch waits once', () => {
	test('all receipts are issued first, then followed together, at most Parallel Status Checks at a time; output in input order', async () => {
		env.receipts.decideAfterMs = 400;
		env.server.delayMs = 20; // each check takes a while, so overlapping checks show
		const n = 12;
		const result = await env.runTimed(
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'json',
				jsonBody: retentionFromRows(),
				waitForFinalState: true,
				waitTimeout: 30,
				options: { pollInterval: 0.1, parallelChecks: 4, parallelRequests: 1 },
			},
			rowsOf(n),
		);
		expect(result.error).toBeUndefined();
		const calls = env.calls();
		const posts = calls.filter((c) => c.method === 'POST');
		const gets = calls.filter((c) => c.method === 'GET');
		expect(posts).toHaveLength(n);
		// Issuing (one after another here, Parallel Requests 1) ends before any status check: the waits overlap, not add up.
		expect(Math.max(...posts.map((c) => c.at))).toBeLessThanOrEqual(
			Math.min(...gets.map((c) => c.at)),
		);
		for (let k = 1; k < posts.length; k++) expect(posts[k].seq).toBeGreaterThan(posts[k - 1].seq);
		// Checks of different receipts interleave, and never more than 4 are in flight.
		expect(new Set(gets.slice(0, n).map((c) => c.path)).size).toBeGreaterThan(1);
		expect(env.server.peakInFlight).toBeLessThanOrEqual(4);
		expect(env.server.peakInFlight).toBeGreaterThan(1);
		const out = result.output('Receipts');
		expect(out.map((o) => o.json.secuencial)).toEqual(rowsOf(n).map((r) => r.seq));
		expect(out.map((o) => o.pairedItem)).toEqual(rowsOf(n).map((_, k) => ({ item: k })));
		expect(out.every((o) => o.json.estado === 'AUTORIZADO')).toBe(true);
	});

	test('mixed outcomes in one batch, with Continue On Fail: each item keeps its place and its own outcome', async () => {
		env.receipts.planNext('AUTORIZADO');
		env.receipts.planNext({ estado: 'NO AUTORIZADO' });
		env.receipts.planNext(...Array(60).fill('RECIBIDO')); // never decided within the timeout
		env.receipts.planNext('DEVUELTO');
		const result = await env.runTimed(
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'json',
				jsonBody: retentionFromRows(),
				waitForFinalState: true,
				waitTimeout: 60,
				options: { pollInterval: 1 },
			},
			rowsOf(4),
			true,
		);
		const out = result.output('Receipts').map((o) => o.json);
		expect(out.map((o) => o.estado)).toEqual([
			'AUTORIZADO',
			'NO AUTORIZADO',
			'RECIBIDO',
			'DEVUELTO',
		]);
		expect(out[2].wait_timed_out).toBe(true);
		expect(out.map((o) => o.secuencial)).toEqual([100, 101, 102, 103]);
	});
});

describe('parallel issuing (Options → Parallel Requests)', () => {
	const issueRows = (n, options = {}, continueOnFail = false) =>
		env.run(
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'json',
				jsonBody: retentionFromRows(),
				options,
			},
			rowsOf(n),
			continueOnFail,
		);

	test('by default 5 issue requests are in flight at once; each receipt is issued once; output paired and in input order', async () => {
		env.server.delayMs = 30; // each issue takes a while, so overlapping requests show
		const n = 20;
		const result = await issueRows(n);
		expect(result.error).toBeUndefined();
		const posts = env.calls().filter((c) => c.method === 'POST');
		expect(posts).toHaveLength(n);
		expect(env.server.peakInFlight).toBe(5);
		expect(new Set(posts.map((c) => /** @type {IDataObject} */ (c.body).secuencial)).size).toBe(n);
		expect(env.receipts.receipts.size).toBe(n);
		const out = result.output('Receipts');
		expect(out.map((o) => o.json.secuencial)).toEqual(rowsOf(n).map((r) => r.seq));
		expect(out.map((o) => o.pairedItem)).toEqual(rowsOf(n).map((_, k) => ({ item: k })));
		// Each output carries the receipt the service created for that row.
		const created = new Map(
			[...env.receipts.receipts.values()].map((r) => [
				Number(/** @type {IDataObject} */ (r.body).secuencial),
				r.id,
			]),
		);
		expect(out.map((o) => o.json.id)).toEqual(rowsOf(n).map((r) => created.get(r.seq)));
	});

	test('Parallel Requests 1 sends one issue request at a time', async () => {
		env.server.delayMs = 10;
		const result = await issueRows(6, { parallelRequests: 1 });
		expect(result.error).toBeUndefined();
		expect(env.server.peakInFlight).toBe(1);
	});

	test('a bad row stops the batch before anything is sent, whatever the parallelism', async () => {
		const jsonBody = `=${JSON.stringify({ ...retentionBody(), secuencial: 0, periodo_fiscal: '' })
			.replace('"secuencial":0', '"secuencial":{{ $json.seq }}')
			.replace(
				'"periodo_fiscal":""',
				'"periodo_fiscal":"{{ $json.seq === 107 ? \'13/2026\' : \'03/2026\' }}"',
			)}`;
		const result = await env.run(
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'json',
				jsonBody,
				options: { parallelRequests: 5 },
			},
			rowsOf(10),
		);
		expect(result.error?.message).toMatch(/^\[item 8\] Fiscal Period \(periodo_fiscal\): /);
		expect(env.calls()).toHaveLength(0);
	});

	test('a refusal mid-batch: no new item starts, the ones in flight finish, and the error lists every receipt created and the items not sent', async () => {
		// The 4th issue request is refused (400) at once: its receipt is not created. The others take 300 ms, so the
		// refusal is seen while items 1–5 are all in flight, whatever the machine's load (a timing bound on how many
		// answers came before it would not hold on a busy machine).
		const slow = {
			service: 'receipts',
			method: 'POST',
			mode: /** @type {const} */ ('slow'),
			delayMs: 300,
		};
		env.server.fail({ ...slow, times: 3 });
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			mode: 'status',
			status: 400,
			body: { message: 'RUC del emisor no habilitado' },
			times: 1,
		});
		env.server.fail({ ...slow, times: 100 });
		const result = await issueRows(30, { parallelRequests: 5 });
		const posts = env.calls().filter((c) => c.method === 'POST');
		const created = [...env.receipts.receipts.values()];
		// No item started after the refusal; the four in flight finished and their receipts exist.
		expect(posts).toHaveLength(5);
		expect(created).toHaveLength(4);
		expect(result.error?.message).toMatch(
			/^\[item 4\] Receipts rejected the request: RUC del emisor no habilitado/,
		);
		const description = String(result.error?.description);
		for (const r of created)
			expect(description).toContain(`id ${r.id}, clave_acceso ${r.clave_acceso}`);
		expect(description).toContain(
			`This execution created ${created.length} receipts before it stopped`,
		);
		expect(description).toContain(
			`Not run (the node stopped at this failure): items ${posts.length + 1}–30.`,
		);
	});

	test('Document → Authorize and Reissue send in parallel too, each receipt once, output in input order', async () => {
		env.server.delayMs = 30;
		const created = rowsOf(10).map((r) =>
			env.receipts.seed('retention', { ...retentionBody(), secuencial: r.seq }, 'CREADO'),
		);
		const authorized = await env.run(
			{ resource: 'document', operation: 'authorize', receiptId: '={{ $json.id }}' },
			created.map((r) => ({ id: r.id })),
		);
		expect(authorized.error).toBeUndefined();
		expect(env.server.peakInFlight).toBe(5);
		expect(
			env
				.calls()
				.map((c) => c.path)
				.sort(),
		).toEqual(created.map((r) => `/edocs/${r.id}/issue`).sort());
		expect(authorized.output('Receipts').map((o) => o.json.id)).toEqual(created.map((r) => r.id));

		env.server.clear();
		env.server.delayMs = 30;
		const returned = rowsOf(10).map((r) =>
			env.receipts.seed('retention', { ...retentionBody(), secuencial: r.seq }, 'DEVUELTO'),
		);
		const jsonBody = retentionFromRows();
		const reissued = await env.run(
			{
				resource: 'retention',
				operation: 'reissue',
				inputMode: 'json',
				jsonBody,
				receiptId: '={{ $json.id }}',
				options: { parallelRequests: 3 },
			},
			returned.map((r, k) => ({ id: r.id, seq: rowsOf(10)[k].seq })),
		);
		expect(reissued.error).toBeUndefined();
		expect(env.server.peakInFlight).toBe(3);
		expect(reissued.output('Receipts').map((o) => o.json.id)).toEqual(returned.map((r) => r.id));
		expect(
			returned.map((r) => /** @type {any} */ (env.receipts.receipts.get(r.id)).reissues),
		).toEqual(Array(10).fill(1));
	});

	test('with Continue On Fail every row runs and each keeps its own outcome, in input order', async () => {
		env.server.delayMs = 10;
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			mode: 'status',
			status: 400,
			body: { message: 'rechazado' },
			skip: 2,
			times: 1,
		});
		const result = await issueRows(8, { parallelRequests: 4 }, true);
		const out = result.output('Receipts').map((o) => o.json);
		expect(out).toHaveLength(8);
		expect(out.filter((o) => o.error)).toHaveLength(1);
		expect(out.filter((o) => o.id)).toHaveLength(7);
		expect(out.map((o) => o.secuencial ?? o.error)).toEqual(
			out.map((o, k) => (o.error ? o.error : 100 + k)),
		);
	});
});

describe('checked once, sent as checked', () => {
	/**
	 * Runs `run` counting how often the node reads each of `names` for each item: an item whose receipt is read
	 * twice (once to check it, once to send it) could send something other than what was checked.
	 * @param {string[]} names
	 * @param {() => Promise<RunResult>} run
	 */
	const countingReads = async (names, run) => {
		const node = env.engine.nodeTypes.getByNameAndVersion('n8n-nodes-latam-fiscal.receipts');
		const execute = /** @type {NonNullable<INodeType['execute']>} */ (node.execute);
		/** @type {Record<string, number[]>} */
		const reads = Object.fromEntries(names.map((name) => [name, []]));
		/** @type {NonNullable<INodeType['execute']>} */
		const counted = async function () {
			const context = this;
			/** @type {(name: string, i: number, ...rest: unknown[]) => unknown} */
			const counting = (name, i, ...rest) => {
				if (names.includes(name)) reads[name][i] = (reads[name][i] ?? 0) + 1;
				return /** @type {Function} */ (context.getNodeParameter).call(context, name, i, ...rest);
			};
			return await execute.call(Object.create(context, { getNodeParameter: { value: counting } }));
		};
		node.execute = counted;
		try {
			const result = await run();
			expect(result.error).toBeUndefined();
		} finally {
			node.execute = execute;
		}
		return reads;
	};
	const once = (n) => Array(n).fill(1);

	test.each([false, true])(
		'Issue and Reissue read each item’s receipt once (Continue On Fail %s): the body sent is the body checked',
		async (continueOnFail) => {
			const issued = await countingReads(['jsonBody'], () =>
				env.run(
					{
						resource: 'retention',
						operation: 'issue',
						inputMode: 'json',
						jsonBody: retentionFromRows(),
					},
					rowsOf(4),
					continueOnFail,
				),
			);
			expect(issued.jsonBody).toEqual(once(4));

			const returned = rowsOf(3).map((r) =>
				env.receipts.seed('retention', { ...retentionBody(), secuencial: r.seq }, 'DEVUELTO'),
			);
			const reissued = await countingReads(['jsonBody', 'receiptId'], () =>
				env.run(
					{
						resource: 'retention',
						operation: 'reissue',
						inputMode: 'json',
						jsonBody: retentionFromRows(),
						receiptId: '={{ $json.id }}',
					},
					returned.map((r, k) => ({ id: r.id, seq: rowsOf(3)[k].seq })),
					continueOnFail,
				),
			);
			expect(reissued).toEqual({ jsonBody: once(3), receiptId: once(3) });
		},
	);

	test('Issue From XML, Document → Authorize and Send by Email read each item once', async () => {
		const fromXml = await countingReads(['xml'], () =>
			env.run(
				{ resource: 'retention', operation: 'issueFromXml', xml: xmlOf('comprobanteRetencion') },
				rowsOf(3),
			),
		);
		expect(fromXml.xml).toEqual(once(3));

		const created = rowsOf(3).map((r) =>
			env.receipts.seed('retention', { ...retentionBody(), secuencial: r.seq }, 'CREADO'),
		);
		const authorized = await countingReads(['receiptId'], () =>
			env.run(
				{ resource: 'document', operation: 'authorize', receiptId: '={{ $json.id }}' },
				created.map((r) => ({ id: r.id })),
			),
		);
		expect(authorized.receiptId).toEqual(once(3));

		const mailed = await countingReads(['receiptId', 'recipients'], () =>
			env.run(
				{
					resource: 'document',
					operation: 'sendEmail',
					receiptId: '={{ $json.id }}',
					recipients: 'buyer@example.com',
				},
				created.map((r) => ({ id: r.id })),
			),
		);
		expect(mailed).toEqual({ receiptId: once(3), recipients: once(3) });
	});
});

describe('reproducible access key (Options → Access Key)', () => {
	const withKey = { options: { accessKey: 'reproducible' } };

	test('built from the receipt data, valid, and the same for the same input', async () => {
		const first = await env.run(jsonIssue('retention', retentionBody(), withKey));
		const second = await env.run(jsonIssue('retention', retentionBody(), withKey));
		expect(first.error).toBeUndefined();
		const [a, b] = env.calls().map((c) => String(/** @type {IDataObject} */ (c.body).clave_acceso));
		expect(a).toMatch(/^\d{49}$/);
		expect(a).toBe(b);
		expect(String(accessKeyCheckDigit(a.slice(0, 48)))).toBe(a[48]);
		expect(splitAccessKey(a)).toMatchObject({
			date: '31032026',
			receiptType: '07',
			ruc: '1792146739001',
			environment: '1',
			series: '001002',
			sequential: '000000123',
			emissionType: '1',
		});
		expect(second.output('Receipts')[0].json.clave_acceso).toBe(a);
	});

	test('running the same input again: the tax authority refuses the duplicate key instead of authorizing it twice', async () => {
		const fast = {
			...withKey,
			waitForFinalState: true,
			waitTimeout: 600,
			options: { ...withKey.options, pollInterval: 1 },
		};
		const first = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		const again = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		expect(first.output('Receipts')[0].json.estado).toBe('AUTORIZADO');
		const out = again.output('Receipts')[0].json;
		expect(out.estado).toBe('DEVUELTO');
		expect(
			/** @type {IDataObject[]} */ (/** @type {IDataObject} */ (out.envio_sri).mensajes)[0],
		).toMatchObject({ identificador: '43', mensaje: 'CLAVE ACCESO REGISTRADA' });
		expect(
			[...env.receipts.receipts.values()].filter((r) => r.estado === 'AUTORIZADO'),
		).toHaveLength(1);
	});

	test.each([
		['waybill', waybillBody, '06', '000000045'],
		['purchaseSettlement', settlementBody, '03', '000000009'],
		['atsRetention', atsRetentionBody, '07', '000000077'],
	])('%s: type code and sequential in the key', async (resource, body, type, sequential) => {
		const result = await env.run(
			jsonIssue(resource, { ...body(), fecha_emision: '2026-04-01' }, withKey),
		);
		expect(result.error).toBeUndefined();
		expect(
			splitAccessKey(String(/** @type {IDataObject} */ (env.calls()[0].body).clave_acceso)),
		).toMatchObject({ date: '01042026', receiptType: type, sequential });
	});

	test('other data, another key; a clave_acceso in the body is kept', async () => {
		await env.run(jsonIssue('retention', retentionBody(), withKey));
		await env.run(jsonIssue('retention', { ...retentionBody(), secuencial: 124 }, withKey));
		const own = KNOWN_ACCESS_KEY;
		await env.run(jsonIssue('retention', { ...retentionBody(), clave_acceso: own }, withKey));
		const keys = env.calls().map((c) => String(/** @type {IDataObject} */ (c.body).clave_acceso));
		expect(keys[0]).not.toBe(keys[1]);
		expect(splitAccessKey(keys[1]).sequential).toBe('000000124');
		expect(keys[2]).toBe(own);
	});

	test('keyed with the credential’s Access Key Secret: another secret, another numeric code; the same secret, the same key', async () => {
		await env.run(jsonIssue('retention', retentionBody(), withKey));
		env.setCredential({ accessKeySecret: 'another-long-secret-of-this-account' });
		await env.run(jsonIssue('retention', retentionBody(), withKey));
		await env.run(jsonIssue('retention', retentionBody(), withKey));
		const [first, other, again] = env
			.calls()
			.map((c) => splitAccessKey(String(/** @type {IDataObject} */ (c.body).clave_acceso)));
		expect(other.numericCode).not.toBe(first.numericCode);
		expect({ ...other, numericCode: '', checkDigit: '' }).toEqual({
			...first,
			numericCode: '',
			checkDigit: '',
		});
		expect(again).toEqual(other);
	});

	test('the numeric code cannot be computed from the receipt’s public fields alone (it is not their plain SHA-256)', async () => {
		await env.run(jsonIssue('retention', retentionBody(), withKey));
		const key = splitAccessKey(
			String(/** @type {IDataObject} */ (env.calls()[0].body).clave_acceso),
		);
		const publicFields = [
			key.date,
			key.receiptType,
			key.ruc,
			key.environment,
			key.series,
			key.sequential,
			key.emissionType,
		].join('|');
		const unkeyed = String(
			parseInt(createHash('sha256').update(publicFields).digest('hex').slice(0, 12), 16) %
				100000000,
		).padStart(8, '0');
		// The derivation docs/receipts.md documents, pinned: changing it would change every key a re-run carries.
		const keyed = String(
			parseInt(
				createHmac('sha256', DEV_ACCESS_KEY_SECRET).update(publicFields).digest('hex').slice(0, 12),
				16,
			) % 100000000,
		).padStart(8, '0');
		expect(key.numericCode).not.toBe(unkeyed);
		expect(key.numericCode).toBe(keyed);
	});

	test.each([
		[
			'empty',
			'',
			/^\[item 1\] Access Key Secret \(Receipts credential\) is empty: a reproducible access key needs it/,
		],
		[
			'too short to stay secret',
			'short',
			/^\[item 1\] Access Key Secret \(Receipts credential\) has 5 characters, fewer than 16/,
		],
	])(
		'an Access Key Secret that is %s: nothing is sent, the message says what to fill in',
		async (_what, accessKeySecret, says) => {
			env.setCredential({ accessKeySecret });
			const result = await env.run(jsonIssue('retention', retentionBody(), withKey));
			expect(env.calls()).toHaveLength(0);
			expect(result.error?.message).toMatch(says);
			expect(result.error?.description).toMatch(/Nothing was sent to the service/);
		},
	);

	test('without fecha_emision the key cannot be reproducible: nothing is sent and the message says what to add', async () => {
		const body = retentionBody();
		delete body.fecha_emision;
		const result = await env.run(jsonIssue('retention', body, withKey));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] Issue Date (fecha_emision) is required to build a reproducible access key (the emission date is part of the key): give it as YYYY-MM-DD',
		);
	});
});

describe('no sample data as defaults', () => {
	const properties = built('nodes/Receipts/Receipts.node', 'Receipts').description.properties;
	const defaultOf = (name, resource, operation) => {
		const p = properties.find(
			(x) =>
				x.name === name &&
				x.displayOptions?.show?.resource?.includes(resource) &&
				x.displayOptions?.show?.operation?.includes(operation),
		);
		if (!p) throw new Error(`no ${name} on ${resource}/${operation}`);
		return p;
	};

	test.each([
		['retention', 'issue', ['secuencial', 'periodo_fiscal', 'items[0].base_imponible']],
		['atsRetention', 'issue', ['secuencia', 'periodo_fiscal']],
		['waybill', 'issue', ['secuencial', 'fecha_inicio_transporte', 'transportista.placa']],
		[
			'purchaseSettlement',
			'issue',
			['secuencial', 'moneda', 'items[0].impuestos[0].codigo', 'pagos[0].forma_pago'],
		],
		[
			'purchaseSettlement',
			'issueWithReimbursement',
			['secuencial', 'moneda', 'items[0].impuestos[0].codigo_porcentaje', 'pagos[0].forma_pago'],
		],
		[
			'invoice',
			'issue',
			[
				'secuencial',
				'moneda',
				'comprador.identificacion',
				'items[0].cantidad',
				'items[0].impuestos[0].codigo_porcentaje',
				'pagos[0].medio',
			],
		],
		[
			'creditNote',
			'issue',
			[
				'secuencial',
				'numero_documento_modificado',
				'fecha_emision_documento_modificado',
				'motivo',
				'items[0].precio_unitario',
			],
		],
		[
			'debitNote',
			'issue',
			[
				'secuencial',
				'tipo_documento_modificado',
				'items[0].motivo',
				'items[0].valor',
				'totales.impuestos[0].codigo_porcentaje',
			],
		],
		['invoice', 'reissue', ['secuencial', 'comprador.razon_social']],
		['retention', 'reissue', ['secuencial', 'periodo_fiscal']],
		['purchaseSettlement', 'reissue', ['secuencial', 'pagos[0].forma_pago']],
	])(
		'%s %s: the untouched JSON body fails validation, naming what to fill in; the example is the placeholder',
		async (resource, operation, named) => {
			const field = defaultOf('jsonBody', resource, operation);
			expect(typeof field.placeholder).toBe('string');
			expect(JSON.parse(String(field.placeholder))).toBeTruthy();
			const result = await env.run({
				resource,
				operation,
				inputMode: 'json',
				jsonBody: field.default,
				receiptId: 'a1b2c3',
			});
			expect(env.calls()).toHaveLength(0);
			const said = `${result.error?.message}\n${result.error?.description}`;
			for (const path of named) expect(said).toContain(path);
		},
	);

	test.each([
		['atsRetention', 'issue', 'documentos_soporte', 'Supporting Documents'],
		['purchaseSettlement', 'issueWithReimbursement', 'reembolso', 'Reimbursement'],
	])(
		'%s %s: the Fields-mode %s JSON starts empty (the example is its placeholder) and is required',
		async (resource, operation, name, label) => {
			const field = defaultOf(name, resource, operation);
			expect(field.default).toBe('');
			expect(JSON.parse(String(field.placeholder))).toBeTruthy();
			const result = await env.run({
				resource,
				operation,
				inputMode: 'fields',
				secuencial: '5',
				secuencia: '5',
				periodo_fiscal: '03/2026',
			});
			expect(env.calls()).toHaveLength(0);
			expect(`${result.error?.message}\n${result.error?.description}`).toContain(
				`\n- ${label} is required`,
			);
		},
	);
});

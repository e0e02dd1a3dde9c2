/** @import { IDataObject } from 'n8n-workflow' */
import { SRI_CODES } from '../../nodes/shared/sri/sriMessages';
import { jsonIssue, retentionBody, useReceipts, waybillBody } from './setup';

/**
 * A rejected receipt explained, with Simplify on or off, through the engine against the simulator: the SRI's
 * messages wherever the service puts them, what each code means and what to do (SRI, Ficha técnica, sección 11),
 * the document number, and no printable-form link for a receipt that is not valid.
 */

const env = useReceipts();

/** Wait for Final State on the fake clock (`env.runTimed`): checks from 1 s, for up to 10 minutes. */
const fast = { waitForFinalState: true, waitTimeout: 600, options: { pollInterval: 1 } };
const reproducible = { ...fast, options: { ...fast.options, accessKey: 'reproducible' } };
const receiptsOf = () => [...env.receipts.receipts.values()];

/**
 * What a retention (number 001-002-000000123) returned by the SRI with `code` outputs: the reason with the SRI's
 * words, the code's next step, and the message read from envio_sri.
 * @returns {IDataObject}
 */
const returnedWith = (code, mensaje) => ({
	estado: 'DEVUELTO',
	rejected: true,
	reason: `${code} ${mensaje} — ${SRI_CODES[code].explanation}`,
	next_step: SRI_CODES[code].nextStep,
	numero: '001-002-000000123',
	sri_messages: [expect.objectContaining({ identificador: code, mensaje, source: 'envio_sri' })],
});

/** Issues the retention once and returns its output (Wait for Final State on). */
async function issue(extra = {}, body = retentionBody()) {
	const result = await env.runTimed(jsonIssue('retention', body, extra));
	expect(result.error).toBeUndefined();
	return result.output('Receipts')[0].json;
}

describe('DEVUELTO 43: the same access key sent again (a repeated run with the reproducible key)', () => {
	test.each([true, false])(
		'Simplify %s: rejected, the reason from envio_sri.mensajes, look it up and do not issue or reissue',
		async (simplify) => {
			const first = await issue(reproducible);
			const again = await issue({ ...reproducible, simplify });
			expect(first).toMatchObject({ estado: 'AUTORIZADO', rejected: false });
			expect(again.clave_acceso).toBe(first.clave_acceso);
			expect(again).toMatchObject(returnedWith('43', 'CLAVE ACCESO REGISTRADA'));
			expect(again.sri_messages).toEqual([
				{
					identificador: '43',
					mensaje: 'CLAVE ACCESO REGISTRADA',
					tipo: 'ERROR',
					source: 'envio_sri',
					explanation: SRI_CODES['43'].explanation,
					next_step: SRI_CODES['43'].nextStep,
				},
			]);
			expect(again.next_step).toMatch(/do not issue or reissue it/);
			// The printable form of a receipt that is not valid is not offered in the simplified output.
			if (simplify) expect(again).not.toHaveProperty('url_formato_impresion');
			else
				expect(again).toMatchObject({
					envio_sri: { estado: 'DEVUELTA' },
					url_formato_impresion: expect.any(String),
				});
			expect(receiptsOf().filter((r) => r.estado === 'AUTORIZADO')).toHaveLength(1);
		},
	);

	test('the outcome comes first in the whole receipt, not at the bottom of it', async () => {
		await issue(reproducible);
		const again = await issue(reproducible);
		expect(Object.keys(again).slice(0, 5)).toEqual([
			'estado',
			'rejected',
			'reason',
			'next_step',
			'sri_messages',
		]);
	});

	test('reissuing the returned duplicate as it is: returned again with 43, never authorized twice', async () => {
		await issue(reproducible);
		const again = await issue(reproducible);
		const result = await env.runTimed(
			jsonIssue(
				'retention',
				retentionBody(),
				{ ...fast, receiptId: again.id, simplify: true },
				'reissue',
			),
		);
		expect(result.output('Receipts')[0].json).toMatchObject({
			estado: 'DEVUELTO',
			rejected: true,
			sri_messages: [{ identificador: '43' }],
		});
		expect(receiptsOf().filter((r) => r.estado === 'AUTORIZADO')).toHaveLength(1);
	});
});

describe('DEVUELTO 45: a sequential already used, under another access key', () => {
	test.each([true, false])(
		'Simplify %s: the sequential is used; issue with the next one after checking it is not the same sale',
		async (simplify) => {
			await issue(fast);
			const second = await issue({ ...fast, simplify });
			expect(second).toMatchObject(returnedWith('45', 'ERROR SECUENCIAL REGISTRADO'));
			expect(second.next_step).toMatch(/issue this receipt again with the next unused sequential/);
			const [a, b] = receiptsOf();
			expect(a.clave_acceso).not.toBe(b.clave_acceso);
		},
	);

	test('the next sequential is authorized', async () => {
		await issue(fast);
		expect(await issue(fast, { ...retentionBody(), secuencial: 124 })).toMatchObject({
			estado: 'AUTORIZADO',
			rejected: false,
			numero: '001-002-000000124',
		});
	});

	test.each([
		['DEVUELTO', '35'],
		['NO AUTORIZADO', '39'],
	])(
		'a receipt the SRI rejected (%s %s) holds neither its key nor its number: sent again under them, it is authorized',
		async (estado, code) => {
			env.receipts.planNext(estado);
			const rejected = await issue(reproducible);
			expect(rejected).toMatchObject({
				estado,
				rejected: true,
				sri_messages: [{ identificador: code }],
			});
			expect(await issue(reproducible)).toMatchObject({
				estado: 'AUTORIZADO',
				clave_acceso: rejected.clave_acceso,
			});
		},
	);
});

describe('NO AUTORIZADO and other codes of the specification', () => {
	const structure = {
		identificador: '58',
		mensaje: 'ERROR EN LA ESTRUCTURA DE CLAVE DE ACCESO',
		tipo: 'ERROR',
		informacion_adicional: 'La clave de acceso no corresponde al comprobante',
	};

	test.each([true, false])(
		'Simplify %s — Authorize: the reason from autorizacion.mensajes (58, the access key’s structure), corrected and reissued',
		async (simplify) => {
			const r = env.receipts.seed('retention', retentionBody(), 'CREADO');
			env.receipts.planNext('RECIBIDO', { estado: 'NO AUTORIZADO', mensajes: [structure] });
			const result = await env.runTimed({
				resource: 'document',
				operation: 'authorize',
				receiptId: r.id,
				...fast,
				simplify,
			});
			const out = result.output('Receipts')[0].json;
			expect(out).toMatchObject({
				estado: 'NO AUTORIZADO',
				rejected: true,
				reason: `58 ERROR EN LA ESTRUCTURA DE CLAVE DE ACCESO (La clave de acceso no corresponde al comprobante) — ${SRI_CODES['58'].explanation}`,
				next_step: SRI_CODES['58'].nextStep.replace(
					'{resend}',
					`send it again with Reissue (ID ${r.id})`,
				),
				numero: '001-002-000000123',
				sri_messages: [{ ...structure, source: 'autorizacion' }],
			});
			if (simplify) expect(out).toMatchObject({ autorizacion_mensajes: [structure] });
			if (simplify) expect(out).not.toHaveProperty('url_formato_impresion');
		},
	);

	test.each([true, false])(
		'Simplify %s — Reissue returned for its XML structure (35): correct the field the detail names',
		async (simplify) => {
			const r = env.receipts.seed('waybill', waybillBody(), 'DEVUELTO');
			env.receipts.planNext('DEVUELTO');
			const result = await env.runTimed(
				jsonIssue('waybill', waybillBody(), { ...fast, receiptId: r.id, simplify }, 'reissue'),
			);
			const out = result.output('Receipts')[0].json;
			expect(out).toMatchObject({
				estado: 'DEVUELTO',
				rejected: true,
				reason: `35 ARCHIVO NO CUMPLE ESTRUCTURA XML (Se encontró el siguiente error en la estructura del comprobante) — ${SRI_CODES['35'].explanation}`,
				next_step: `Correct the field the detail names, then send it again with Reissue (ID ${r.id}): it keeps its access key and sequential.`,
				numero: '001-002-000000045',
			});
		},
	);

	test.each([true, false])(
		'Simplify %s — an unknown code keeps its raw message; the general next step applies',
		async (simplify) => {
			const unknown = {
				identificador: '999',
				mensaje: 'NUEVA VALIDACION DEL SRI',
				tipo: 'ERROR',
				informacion_adicional: 'detalle del SRI',
			};
			env.receipts.planNext({ estado: 'DEVUELTO', mensajes: [unknown] });
			const out = await issue({ ...fast, simplify });
			expect(out).toMatchObject({
				rejected: true,
				reason: '999 NUEVA VALIDACION DEL SRI (detalle del SRI)',
				next_step: `Correct what the SRI's messages say, then send it again with Reissue (ID ${out.id}): a corrected receipt keeps its access key and sequential.`,
				sri_messages: [{ ...unknown, source: 'envio_sri' }],
			});
			expect(/** @type {IDataObject[]} */ (out.sri_messages)[0]).not.toHaveProperty('explanation');
		},
	);
});

describe('Get: the outcome of a receipt read later', () => {
	test.each([
		['document', true],
		['document', false],
		['waybill', true],
		['waybill', false],
	])(
		'%s Get, Simplify %s: a returned receipt is explained the same way',
		async (resource, simplify) => {
			env.receipts.advanceOnRead = false;
			const r = env.receipts.seed('waybill', waybillBody(), 'DEVUELTO');
			const result = await env.run({ resource, operation: 'get', receiptId: r.id, simplify });
			const out = result.output('Receipts')[0].json;
			expect(out).toMatchObject({
				estado: 'DEVUELTO',
				rejected: true,
				reason: expect.stringMatching(/^35 ARCHIVO NO CUMPLE ESTRUCTURA XML/),
				numero: '001-002-000000045',
			});
			expect(out.sri_messages).toEqual([
				expect.objectContaining({ identificador: '35', source: 'envio_sri' }),
			]);
			expect('url_formato_impresion' in out).toBe(!simplify);
		},
	);

	test('messages at the receipt’s top level are read too', async () => {
		const m = { identificador: '52', mensaje: 'ERROR EN DIFERENCIAS', tipo: 'ERROR' };
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			times: 1,
			status: 200,
			body: {
				id: 'x',
				estado: 'NO AUTORIZADO',
				clave_acceso: '2110201101179214673900110020010000000011234567813',
				mensajes: [m],
			},
		});
		const result = await env.run({
			resource: 'document',
			operation: 'get',
			receiptId: 'x',
			simplify: true,
		});
		expect(result.output('Receipts')[0].json).toMatchObject({
			rejected: true,
			reason: `52 ERROR EN DIFERENCIAS — ${SRI_CODES['52'].explanation}`,
			numero: '002-001-000000001',
			sri_messages: [{ ...m, source: 'mensajes' }],
		});
	});

	test('an authorized receipt: not rejected, no reason, the printable form offered', async () => {
		env.receipts.advanceOnRead = false;
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		const out = (
			await env.run({ resource: 'document', operation: 'get', receiptId: r.id, simplify: true })
		).output('Receipts')[0].json;
		expect(out).toMatchObject({
			estado: 'AUTORIZADO',
			rejected: false,
			sri_messages: [],
			url_formato_impresion: expect.stringMatching(/\/pdf$/),
		});
		expect(out).not.toHaveProperty('reason');
		expect(out).not.toHaveProperty('next_step');
	});

	test('not decided yet: not a failure, and how to follow it', async () => {
		const out = await issue({ simplify: true });
		expect(out).toMatchObject({
			estado: 'CREADO',
			rejected: false,
			next_step: expect.stringMatching(
				/^Not decided by the tax authority yet \(CREADO\); this is not a failure/,
			),
		});
	});
});

describe('a refused request that carries SRI messages', () => {
	test('the error says what the code means and what to do, beside the SRI’s words', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			times: 1,
			status: 400,
			body: {
				error: 'Comprobante rechazado',
				mensajes: [{ identificador: '43', mensaje: 'CLAVE ACCESO REGISTRADA', tipo: 'ERROR' }],
			},
		});
		const result = await env.run(jsonIssue('retention', retentionBody()));
		expect(result.error?.message).toBe(
			'[item 1] Receipts rejected the request: Comprobante rechazado',
		);
		expect(result.error?.description).toContain(
			`- [ERROR 43] CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}. ${SRI_CODES['43'].nextStep}`,
		);
	});

	test('an unknown code in an error keeps its raw words', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			times: 1,
			status: 400,
			body: {
				error: 'Comprobante rechazado',
				mensajes: [{ identificador: '999', mensaje: 'OTRO', tipo: 'ERROR' }],
			},
		});
		const result = await env.run(jsonIssue('retention', retentionBody()));
		expect(result.error?.description).toMatch(
			/^- \[ERROR 999\] OTRO \(POST \/retentions\/issue, HTTP 400\)$/m,
		);
	});
});

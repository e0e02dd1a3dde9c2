/** @import { IDataObject } from 'n8n-workflow' */
import { documentNumber, explainOutcome, messageLine } from '../../nodes/Receipts/domain/outcome';
import {
	explainedLine,
	explainMessage,
	isError,
	nextStepOf,
	reasonLine,
	SRI_CODES,
	sriCode,
} from '../../nodes/shared/sri/sriMessages';
import { KNOWN_ACCESS_KEY } from './setup';

/**
 * The SRI's message codes and what a bookkeeper reads of a receipt's outcome (shared/sri/sriMessages.ts,
 * domain/outcome.ts), without the engine.
 */

describe('the table of SRI message codes', () => {
	// SRI, Ficha técnica comprobantes electrónicos esquema offline v2.32, sección 11: the errors of the web
	// services, the validations asked of the issuer's system, and the warnings (advertencias).
	const ERRORS = [
		'2',
		'10',
		'26',
		'27',
		'28',
		'34',
		'35',
		'36',
		'37',
		'39',
		'40',
		'42',
		'43',
		'45',
		'46',
		'47',
		'48',
		'49',
		'50',
		'52',
		'56',
		'57',
		'58',
		'63',
		'64',
		'65',
		'67',
		'69',
		'70',
		'80',
		'82',
		'92',
	];
	const WARNINGS = ['59', '60', '62', '68'];

	test('holds exactly the codes of the specification, errors and warnings apart: none invented, none left out', () => {
		expect(Object.keys(SRI_CODES).sort()).toEqual([...ERRORS, ...WARNINGS].sort());
		expect(ERRORS.filter((c) => SRI_CODES[c].kind !== 'error')).toEqual([]);
		expect(WARNINGS.filter((c) => SRI_CODES[c].kind !== 'warning')).toEqual([]);
	});

	test('every entry explains in a sentence and names a next step; {resend} is the only placeholder', () => {
		for (const [code, entry] of Object.entries(SRI_CODES)) {
			expect([code, entry.explanation]).toEqual([code, expect.stringMatching(/^[A-Z][^]*[^.]$/)]);
			expect([code, entry.nextStep]).toEqual([code, expect.stringMatching(/\.$/)]);
			expect([code, entry.nextStep.replace('{resend}', '').includes('{')]).toEqual([code, false]);
		}
	});

	test('43: the receipt exists, look it up, do not issue or reissue it', () => {
		expect(sriCode('43')?.explanation).toBe(
			'The access key is already registered at the SRI: a receipt with this key was sent before',
		);
		expect(nextStepOf('43', 'abc')).toMatch(
			/^The receipt exists: look it up .* do not issue or reissue it\./,
		);
		expect(nextStepOf('43', 'abc')).not.toContain('Reissue (ID');
	});

	test('45: the sequential is used, issue with the next one (after checking it is not the same sale)', () => {
		expect(sriCode(45)?.explanation).toMatch(/^The sequential number is already used/);
		expect(nextStepOf(45)).toMatch(/issue this receipt again with the next unused sequential/);
	});

	test('70: neither send again nor change the key or sequential; wait up to 24 hours (the specification’s note 2)', () => {
		expect(nextStepOf('70')).toMatch(
			/^Do not send it again and do not issue it with another access key or sequential: wait .* 24 hours/,
		);
	});

	test('a correctable code says how to send it again: with Reissue and the ID when the receipt has one', () => {
		expect(nextStepOf('35', 'r1')).toBe(
			'Correct the field the detail names, then send it again with Reissue (ID r1): it keeps its access key and sequential.',
		);
		expect(nextStepOf('35')).toBe(
			'Correct the field the detail names, then send it again: it keeps its access key and sequential.',
		);
	});

	test('codes are read as the service may write them: number, leading zeros, spaces', () => {
		for (const written of [43, '43', '043', ' 43 ']) expect(sriCode(written)).toBe(SRI_CODES['43']);
		for (const unknown of ['999', '', undefined, null, {}, '4 3'])
			expect(sriCode(unknown)).toBeUndefined();
	});
});

describe('one message', () => {
	const registered = { identificador: '43', mensaje: 'CLAVE ACCESO REGISTRADA', tipo: 'ERROR' };
	const unknown = {
		identificador: '999',
		mensaje: 'ALGO NUEVO DEL SRI',
		tipo: 'ERROR',
		informacion_adicional: 'detalle',
	};

	test('a known code: the SRI’s words, then what it means and what to do', () => {
		expect(explainedLine(registered)).toBe(
			`[ERROR 43] CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}. ${SRI_CODES['43'].nextStep}`,
		);
		expect(messageLine(registered)).toBe(explainedLine(registered));
		expect(reasonLine(registered)).toBe(
			`43 CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}`,
		);
	});

	test('an unknown code keeps its raw message, with nothing added', () => {
		expect(explainedLine(unknown)).toBe('[ERROR 999] ALGO NUEVO DEL SRI (detalle)');
		expect(reasonLine(unknown)).toBe('999 ALGO NUEVO DEL SRI (detalle)');
		expect(explainMessage(unknown, 'envio_sri')).toEqual({ ...unknown, source: 'envio_sri' });
	});

	test('sri_messages entries: the service’s fields as text, where the message was, explanation and next step', () => {
		expect(
			explainMessage(
				{
					identificador: 45,
					mensaje: 'ERROR SECUENCIAL REGISTRADO',
					tipo: 'ERROR',
					informacion_adicional: null,
				},
				'envio_sri',
				'r9',
			),
		).toEqual({
			identificador: '45',
			mensaje: 'ERROR SECUENCIAL REGISTRADO',
			tipo: 'ERROR',
			source: 'envio_sri',
			explanation: SRI_CODES['45'].explanation,
			next_step: nextStepOf('45', 'r9'),
		});
	});

	test('what refuses: tipo ERROR; without tipo, any code but the specification’s warnings', () => {
		expect(isError(registered)).toBe(true);
		expect(isError({ identificador: '60', mensaje: 'AMBIENTE', tipo: 'ADVERTENCIA' })).toBe(false);
		expect(isError({ identificador: '43', mensaje: 'X', tipo: 'INFORMATIVO' })).toBe(false);
		expect(isError({ identificador: '62', mensaje: 'IDENTIFICACION INCORRECTA' })).toBe(false);
		expect(isError({ identificador: '999', mensaje: 'X' })).toBe(true);
	});
});

describe('the outcome of a receipt', () => {
	/** @returns {IDataObject} */
	const receipt = (extra) => ({ id: 'r1', clave_acceso: KNOWN_ACCESS_KEY, ...extra });

	test('DEVUELTO: the reason is in envio_sri.mensajes', () => {
		const out = explainOutcome(
			receipt({
				estado: 'DEVUELTO',
				envio_sri: {
					estado: 'DEVUELTA',
					mensajes: [{ identificador: '43', mensaje: 'CLAVE ACCESO REGISTRADA', tipo: 'ERROR' }],
				},
			}),
		);
		expect(out).toEqual({
			rejected: true,
			reason: `43 CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}`,
			next_step: SRI_CODES['43'].nextStep,
			sri_messages: [
				{
					identificador: '43',
					mensaje: 'CLAVE ACCESO REGISTRADA',
					tipo: 'ERROR',
					source: 'envio_sri',
					explanation: SRI_CODES['43'].explanation,
					next_step: SRI_CODES['43'].nextStep,
				},
			],
		});
	});

	test('NO AUTORIZADO: the reason is in autorizacion.mensajes; a warning beside it is listed, not a reason', () => {
		const out = explainOutcome(
			receipt({
				estado: 'NO AUTORIZADO',
				autorizacion: {
					estado: 'NO AUTORIZADO',
					mensajes: [
						{
							identificador: '58',
							mensaje: 'ERROR EN LA ESTRUCTURA DE CLAVE DE ACCESO',
							tipo: 'ERROR',
						},
						{
							identificador: '60',
							mensaje: 'ESTE PROCESO FUE REALIZADO EN EL AMBIENTE DE PRUEBAS',
							tipo: 'INFORMATIVO',
						},
					],
				},
			}),
		);
		expect(out.rejected).toBe(true);
		expect(out.reason).toBe(
			`58 ERROR EN LA ESTRUCTURA DE CLAVE DE ACCESO — ${SRI_CODES['58'].explanation}`,
		);
		expect(out.next_step).toBe(nextStepOf('58', 'r1'));
		expect(out.sri_messages.map((m) => [m.identificador, m.source])).toEqual([
			['58', 'autorizacion'],
			['60', 'autorizacion'],
		]);
	});

	test('an unknown code: its raw message is the reason, and the general next step of the state applies', () => {
		const out = explainOutcome(
			receipt({
				estado: 'DEVUELTO',
				envio_sri: {
					mensajes: [{ identificador: '999', mensaje: 'ALGO NUEVO DEL SRI', tipo: 'ERROR' }],
				},
			}),
		);
		expect(out.reason).toBe('999 ALGO NUEVO DEL SRI');
		expect(out.next_step).toBe(
			"Correct what the SRI's messages say, then send it again with Reissue (ID r1): a corrected receipt keeps its access key and sequential.",
		);
	});

	test('messages at the top level count too, and one repeated in two places is listed once', () => {
		const m = { identificador: '52', mensaje: 'ERROR EN DIFERENCIAS', tipo: 'ERROR' };
		const out = explainOutcome(
			receipt({
				estado: 'NO AUTORIZADO',
				mensajes: [m],
				autorizacion: { estado: 'NO AUTORIZADO', mensajes: [m] },
			}),
		);
		expect(out.sri_messages.map((x) => x.source)).toEqual(['mensajes']);
		expect(out.reason).toBe(`52 ERROR EN DIFERENCIAS — ${SRI_CODES['52'].explanation}`);
	});

	test('a rejection without any message still says what happened and what to do', () => {
		expect(explainOutcome(receipt({ estado: 'DEVUELTO' }))).toMatchObject({
			rejected: true,
			reason: 'The tax authority returned the receipt (DEVUELTO) and gave no message',
		});
		expect(explainOutcome(receipt({ estado: 'ERROR' })).next_step).toMatch(
			/^Read the receipt again with Document → Get \(ID r1\)/,
		);
	});

	test('not decided yet (CREADO, RECIBIDO, PRE-AUTORIZADO): not rejected, and the next step says it is not a failure', () => {
		for (const estado of ['CREADO', 'RECIBIDO', 'PRE-AUTORIZADO']) {
			const out = explainOutcome(receipt({ estado }));
			expect(out).toEqual({
				rejected: false,
				next_step: expect.stringContaining(`(${estado}); this is not a failure`),
				sri_messages: [],
			});
			// Only a receipt still CREADO may need to be signed and sent.
			expect(out.next_step?.includes('sign and send it with Document → Authorize (ID r1)')).toBe(
				estado === 'CREADO',
			);
		}
	});

	test('AUTORIZADO: not rejected, no reason, no next step', () => {
		expect(
			explainOutcome(
				receipt({ estado: 'AUTORIZADO', autorizacion: { estado: 'AUTORIZADO', mensajes: [] } }),
			),
		).toEqual({ rejected: false, sri_messages: [] });
	});

	test('a signing failure: rejected, sign it again with Authorize', () => {
		const out = explainOutcome(
			receipt({
				estado: 'CREADO',
				firma: { result: 'error', error: 'Contraseña incorrecta', status: 400 },
			}),
		);
		expect(out).toMatchObject({
			rejected: true,
			reason: 'The receipts service could not sign the receipt: Contraseña incorrecta (status 400)',
		});
		expect(out.next_step).toContain('Document → Authorize (ID r1)');
	});
});

describe('the document number', () => {
	test('the service’s numero when it sends one', () => {
		expect(documentNumber({ numero: '001-002-000000148', secuencial: 1 })).toBe(
			'001-002-000000148',
		);
	});

	test('else establishment, emission point and sequential of the receipt, padded', () => {
		expect(
			documentNumber({
				secuencial: 148,
				emisor: { establecimiento: { codigo: '1', punto_emision: 2 } },
			}),
		).toBe('001-002-000000148');
		expect(
			documentNumber({
				secuencia: '77',
				emisor: { establecimiento: { codigo: '001', punto_emision: '002' } },
			}),
		).toBe('001-002-000000077');
	});

	test('else series and sequential of the access key', () => {
		// KNOWN_ACCESS_KEY (the SRI technical sheet's example): series 002001, sequential 000000001.
		expect(documentNumber({ clave_acceso: KNOWN_ACCESS_KEY })).toBe('002-001-000000001');
	});

	test('nothing to build it from: undefined', () => {
		expect(documentNumber({ secuencial: 'abc', clave_acceso: '123' })).toBeUndefined();
	});
});

import type { INodeProperties } from 'n8n-workflow';
import { concurrencyOption } from '../../../shared/router';

/** The kind of CFDI every operation of Bulk Download asks about: it picks the SAT's hosts. */
export const cfdiKindField: INodeProperties = {
	displayName: 'CFDI Kind',
	name: 'cfdiKind',
	type: 'options',
	options: [
		{ name: 'CFDI', value: 'cfdi', description: 'Invoices, payments, payroll… (the usual CFDIs)' },
		{
			name: 'Retention CFDI (CFDI De Retenciones)',
			value: 'retenciones',
			description: "CFDI de Retenciones e Información de Pagos, on the SAT's retention hosts",
		},
	],
	default: 'cfdi',
	description:
		'Which CFDIs: the SAT serves retention CFDIs from other hosts. Check Request and Download must name the kind the request was for.',
};

/**
 * Options → Service Address of Bulk Download: where the four services are asked (domain/bulk/service.ts,
 * bulkAddresses).
 */
const serviceAddressOption: INodeProperties = {
	displayName: 'Service Address',
	name: 'serviceAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://proxy.example.com/sat-bulk',
	description:
		'Leave empty to ask the SAT itself (cfdidescargamasivasolicitud.clouda.sat.gob.mx and cfdidescargamasiva.clouda.sat.gob.mx, or the retention hosts). A full address (scheme, host, port, optional path) sends every call below it instead — /Autenticacion/Autenticacion.svc, /SolicitaDescargaService.svc, /VerificaSolicitudDescargaService.svc, /DescargaMasivaService.svc — e.g. to a proxy or a simulator.',
};

/** Options → Parallel Requests, with the default and bound the operation takes. */
const parallel = (defaultValue: number, what: string): INodeProperties => ({
	...concurrencyOption,
	typeOptions: { minValue: 1, maxValue: 5, numberPrecision: 0 },
	default: defaultValue,
	description: `How many ${what} to ask the SAT about at the same time (read once per execution, from the first item). The SAT's service is slow and its callers keep this low. Output order always matches input order.`,
});

/** Options → Request Timeout of Bulk Download: one call, its re-send (when it may be re-sent) included. */
const requestTimeoutOption = (defaultSeconds: number): INodeProperties => ({
	displayName: 'Request Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 5, maxValue: 600, numberPrecision: 0 },
	default: defaultSeconds,
	description:
		"How long one call to the SAT may take at most, from sending it to the last byte of its answer (read once per execution, from the first item). The SAT's hosts are slow: its clients wait 15 to 60 seconds, a large package longer.",
});

/** The Options collection of an operation of Bulk Download. */
export function bulkOptions(
	what: string,
	parallelDefault: number,
	timeoutDefault: number,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			parallel(parallelDefault, what),
			requestTimeoutOption(timeoutDefault),
			serviceAddressOption,
		],
	};
}

/** The Parallel Requests option of an operation (the router reads it through `parallelOption`). */
export const parallelOptionOf = (options: INodeProperties): INodeProperties =>
	(options.options as INodeProperties[])[0];

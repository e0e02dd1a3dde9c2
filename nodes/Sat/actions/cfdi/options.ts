import type { INodeProperties } from 'n8n-workflow';
import { concurrencyOption } from '../../../shared/router';

/** Options → Service Address: where the SAT's status service is asked (shared/soap.ts, serviceAddress). */
export const serviceAddressOption: INodeProperties = {
	displayName: 'Service Address',
	name: 'serviceAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://proxy.example.com/sat',
	description:
		"Leave empty to ask the SAT itself (consultaqr.facturaelectronica.sat.gob.mx). A full address (scheme, host, port, optional path) sends every question there instead, e.g. to a proxy or a simulator; the service's path is added unless the address already ends with ConsultaCFDIService.svc.",
};

/**
 * Options → Parallel Requests of Check CFDI Status: the router's option with a small default, because the SAT
 * asks the callers of its public service not to raise their volume (SAT, Documentación del Servicio de Consulta
 * de CFDI v1.2).
 */
export const parallelRequestsOption: INodeProperties = {
	...concurrencyOption,
	typeOptions: { minValue: 1, maxValue: 10, numberPrecision: 0 },
	default: 2,
	description:
		'How many CFDIs to ask the SAT about at the same time (read once per execution, from the first item). The SAT asks the callers of this public service not to raise their volume: keep it low. Output order always matches input order.',
};

/** Options → Request Timeout of Check CFDI Status: the whole exchange, one re-send included. */
export const requestTimeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600, numberPrecision: 0 },
	default: 15,
	description:
		"How long asking the SAT about one CFDI may take at most, from sending the request to the last byte of the answer, a re-send included (read once per execution, from the first item). The SAT's service is often slow; an answer that arrives after this time is not waited for, and the item fails naming its UUID.",
};

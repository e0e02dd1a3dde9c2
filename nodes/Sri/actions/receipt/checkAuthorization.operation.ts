import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { itemError, reword } from '../../../shared/errors';
import type { OperationResult } from '../../../shared/router';
import { ask, type PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { keyAmbiente, keyProblem, normalizeKey } from '../../domain/key';
import { presentAnswer } from '../../domain/result';
import { authorizationAddress, authorizationQuestion, SRI } from '../../domain/service';
import {
	attachXmlOption,
	binaryFieldOption,
	NOT_ASKED,
	parallelRequestsOption,
	requestTimeoutOption,
	serviceAddressOption,
	withXmlFile,
} from './common.descriptions';

export const kind = 'read';

/** The next key's question is sent while this one's answer is read into its output (router.ts, overlaps). */
export const overlaps = true;

/** Options → Parallel Requests with the SRI's small default (the router reads it). */
export const parallelOption = parallelRequestsOption;

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receipt'], operation: ['checkAuthorization'] } },
	[
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 2110202601179001691900120010010000001231234567813',
			description:
				'The receipt’s access key (clave de acceso): the 49 digits printed on its RIDE and inside its XML. Spaces are ignored. Usually an expression that reads it from the input item.',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				attachXmlOption,
				parallelRequestsOption,
				binaryFieldOption,
				requestTimeoutOption,
				serviceAddressOption,
			],
		},
	],
);

/**
 * Asks the SRI's AutorizacionComprobantesOffline about one key (domain/service.ts, through shared/soap.ts) and outputs what it said
 * (domain/result.ts). A key that is not one, or a Service Address that is not an address, stops the item
 * before anything is sent; an answer that is not a usable SOAP answer is an error naming the key.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const key = normalizeKey(this.getNodeParameter('accessKey', i, ''));
	// One read of the item's Options (each parameter read costs n8n a resolution of its own).
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const check = new Checker();
	const keyIssue = keyProblem(key);
	if (keyIssue) check.fail('Access Key', keyIssue);
	const clave = key as string;
	const where = authorizationAddress(
		keyIssue ? 'produccion' : keyAmbiente(clave),
		options.serviceAddress,
	);
	if ('problem' in where) check.fail('Options → Service Address', where.problem);
	check.throwIfFailed(this.getNode(), i, NOT_ASKED);

	let answer;
	try {
		answer = await ask(
			ctx,
			SRI,
			authorizationQuestion(clave, (where as { address: string }).address),
			i,
		);
	} catch (error) {
		throw reword(error, `Access key ${clave}: `);
	}
	const presented = presentAnswer(answer, 'sri', clave);
	if ('unreadable' in presented)
		throw itemError(
			this.getNode(),
			i,
			`Access key ${clave}: the SRI's answer holds a receipt that cannot be read (${presented.unreadable})`,
			'The SRI answered, but the receipt inside its answer is not a receipt the package reads safely, so nothing of it is given. If Options → Service Address is set, check that it is the SRI or a faithful proxy of it.',
		);
	return await withXmlFile.call(this, i, presented, options);
}

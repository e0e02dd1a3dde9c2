import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptKind } from '../../domain/schemas';
import type { ReceiptsContext } from '../../transport';
import { finish, outputOptions, simplifyField, waitFields } from './output';
import { inputModeField, jsonBodyField, readReceipt } from './receiptInput';
import { readXml, xmlFields } from './xml';

/** Building blocks of the Issue and Issue From XML operations of every receipt kind. */

export const issueProperties = (example: IDataObject, fields: INodeProperties[]): INodeProperties[] => [
	inputModeField,
	jsonBodyField(example),
	...fields,
	...waitFields,
	simplifyField,
	outputOptions(),
];

export const issueFromXmlProperties: INodeProperties[] = [...xmlFields, ...waitFields, simplifyField, outputOptions()];

/** POST the validated body to `path` (signed: X-Password), then wait/simplify as asked. */
export async function issueReceipt(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	kind: ReceiptKind,
	path: string,
	fromFields: (this: IExecuteFunctions, i: number) => IDataObject,
): Promise<OperationResult> {
	const { body, warnings } = readReceipt.call(this, i, kind, fromFields);
	const answer = await ctx.api.sign({ method: 'POST', path, body }, i);
	return await finish.call(this, ctx, i, answer, { warnings, canWait: true });
}

export async function issueXml(this: IExecuteFunctions, ctx: ReceiptsContext, i: number, path: string): Promise<OperationResult> {
	const xml = await readXml.call(this, i);
	const answer = await ctx.api.sign({ method: 'POST', path, body: { xml } }, i);
	return await finish.call(this, ctx, i, answer, { canWait: true });
}

import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { InitialMessageListDto, InitialMessageResponseDto } from './dto/initial-message-response.dto.js';
import { ReplaceInitialMessagesDto } from './dto/replace-initial-messages.dto.js';
import { InitialMessagesService } from './initial-messages.service.js';

@ApiTags('initial-messages')
@ApiBearerAuth()
@ApiParam({ name: 'assistantId', format: 'uuid' })
@Controller('assistants/:assistantId/initial-messages')
export class InitialMessagesController {
  constructor(private readonly messages: InitialMessagesService) {}

  @Get()
  @Endpoint({
    operationId: 'listInitialMessages',
    summary: 'Get the initial messages of an assistant',
    ok: { description: 'The initial messages, in the order they were sent', type: InitialMessageListDto },
    errors: [403, 404],
  })
  async list(@CurrentWorkspace() workspaceId: string, @Param('assistantId', assistantIdPipe) assistantId: string): Promise<InitialMessageListDto> {
    const messages = await this.messages.list(workspaceId, assistantId);
    return { initialMessages: messages.map((message) => InitialMessageResponseDto.from(message)) };
  }

  @Put()
  @Endpoint({
    operationId: 'replaceInitialMessages',
    summary: 'Replace the initial messages of an assistant',
    description: 'The list sent replaces the stored one whole, in one transaction; `[]` deletes them all. A bad item anywhere changes nothing.',
    ok: { description: 'The new list, in the order sent', type: InitialMessageListDto },
    errors: [400, 403, 404, 413, 415],
  })
  async replace(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: ReplaceInitialMessagesDto,
  ): Promise<InitialMessageListDto> {
    const messages = await this.messages.replace(workspaceId, assistantId, dto.initialMessages);
    return { initialMessages: messages.map((message) => InitialMessageResponseDto.from(message)) };
  }
}

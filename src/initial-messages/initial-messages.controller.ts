import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { assistantIdPipe } from '../assistants/assistant-id.pipe.js';
import { CurrentWorkspace } from '../auth/auth.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
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
  @ApiOperation({ operationId: 'listInitialMessages', summary: 'Get the initial messages of an assistant' })
  @ApiOkResponse({ description: 'The initial messages, in the order they were sent', type: InitialMessageListDto })
  @ApiErrorResponses(403, 404)
  async list(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
  ): Promise<InitialMessageListDto> {
    const messages = await this.messages.list(workspaceId, assistantId);
    return { initialMessages: messages.map((message) => InitialMessageResponseDto.from(message)) };
  }

  @Put()
  @ApiOperation({
    operationId: 'replaceInitialMessages',
    summary: 'Replace the initial messages of an assistant',
    description: 'The list sent replaces the stored one whole, in one transaction; `[]` deletes them all. A bad item anywhere changes nothing.',
  })
  @ApiOkResponse({ description: 'The new list, in the order sent', type: InitialMessageListDto })
  @ApiErrorResponses(400, 403, 404, 413, 415)
  async replace(
    @CurrentWorkspace() workspaceId: string,
    @Param('assistantId', assistantIdPipe) assistantId: string,
    @Body() dto: ReplaceInitialMessagesDto,
  ): Promise<InitialMessageListDto> {
    const messages = await this.messages.replace(workspaceId, assistantId, dto.initialMessages);
    return { initialMessages: messages.map((message) => InitialMessageResponseDto.from(message)) };
  }
}

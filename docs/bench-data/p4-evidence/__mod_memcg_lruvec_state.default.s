ffffffff811de5c0 <__mod_memcg_lruvec_state>:
ffffffff811de5c0:	movslq %esi,%rax
ffffffff811de5c3:	push   %r12
ffffffff811de5c5:	mov    %edx,%r12d
ffffffff811de5c8:	movzbl -0x7e08c620(%rax),%edx
ffffffff811de5cf:	push   %rbp
ffffffff811de5d0:	push   %rbx
ffffffff811de5d1:	mov    %rax,%rbx
ffffffff811de5d4:	cmp    $0xff,%dl
ffffffff811de5d7:	jne    ffffffff811de609 <__mod_memcg_lruvec_state+0x49>
ffffffff811de5d9:	cmpb   $0x0,0xd79981(%rip)        # ffffffff81f57f61 <__already_done.24>
ffffffff811de5e0:	jne    ffffffff811de69c <__mod_memcg_lruvec_state+0xdc>
ffffffff811de5e6:	mov    %eax,%edx
ffffffff811de5e8:	mov    $0xffffffff81830970,%rsi
ffffffff811de5ef:	mov    $0xffffffff81a130d8,%rdi
ffffffff811de5f6:	movb   $0x1,0xd79964(%rip)        # ffffffff81f57f61 <__already_done.24>
ffffffff811de5fd:	call   ffffffff81049b47 <__warn_printk>
ffffffff811de602:	ud2
ffffffff811de604:	jmp    ffffffff811de69c <__mod_memcg_lruvec_state+0xdc>
ffffffff811de609:	mov    -0x40(%rdi),%rbp
ffffffff811de60d:	lea    0x18(,%rdx,8),%rdx
ffffffff811de615:	movslq %r12d,%rax
ffffffff811de618:	mov    0x538(%rbp),%rcx
ffffffff811de61f:	add    %rdx,%rcx
ffffffff811de622:	add    %rax,%gs:(%rcx)
ffffffff811de626:	mov    -0x38(%rdi),%rcx
ffffffff811de62a:	mov    %ebx,%edi
ffffffff811de62c:	add    %rax,%gs:-0x18(%rcx,%rdx,1)
ffffffff811de632:	call   ffffffff811dd8ad <memcg_page_state_unit>
ffffffff811de637:	test   %r12d,%r12d
ffffffff811de63a:	je     ffffffff811de659 <__mod_memcg_lruvec_state+0x99>
ffffffff811de63c:	cmp    $0x1000,%eax
ffffffff811de641:	je     ffffffff811de659 <__mod_memcg_lruvec_state+0x99>
ffffffff811de643:	imul   %r12d,%eax
ffffffff811de647:	movslq %eax,%rsi
ffffffff811de64a:	mov    $0x1,%eax
ffffffff811de64f:	shr    $0xc,%rsi
ffffffff811de653:	cmove  %rax,%rsi
ffffffff811de657:	jmp    ffffffff811de65c <__mod_memcg_lruvec_state+0x9c>
ffffffff811de659:	mov    %r12d,%esi
ffffffff811de65c:	mov    %rbp,%rdi
ffffffff811de65f:	call   ffffffff811de551 <memcg_rstat_updated>
ffffffff811de664:	mov    0xd819de(%rip),%eax        # ffffffff81f60048 <__tracepoint_mod_memcg_lruvec_state+0x8>
ffffffff811de66a:	test   %eax,%eax
ffffffff811de66c:	jle    ffffffff811de69c <__mod_memcg_lruvec_state+0xdc>
ffffffff811de66e:	mov    %gs:0x7ee4dc17(%rip),%eax        # 2c28c <pcpu_hot+0xc>
ffffffff811de675:	bt     %rax,0xd9288b(%rip)        # ffffffff81f70f08 <__cpu_online_mask>
ffffffff811de67d:	jae    ffffffff811de69c <__mod_memcg_lruvec_state+0xdc>
ffffffff811de67f:	mov    0xd819fa(%rip),%rax        # ffffffff81f60080 <__tracepoint_mod_memcg_lruvec_state+0x40>
ffffffff811de686:	test   %rax,%rax
ffffffff811de689:	je     ffffffff811de69c <__mod_memcg_lruvec_state+0xdc>
ffffffff811de68b:	mov    0x8(%rax),%rdi
ffffffff811de68f:	mov    %r12d,%ecx
ffffffff811de692:	mov    %ebx,%edx
ffffffff811de694:	mov    %rbp,%rsi
ffffffff811de697:	call   ffffffff814fd0c0 <__SCT__tp_func_mod_memcg_lruvec_state>
ffffffff811de69c:	pop    %rbx
ffffffff811de69d:	pop    %rbp
ffffffff811de69e:	pop    %r12
ffffffff811de6a0:	ret


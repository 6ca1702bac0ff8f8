ffffffff811ddd33 <__mod_memcg_lruvec_state>:
ffffffff811ddd33:	movslq %esi,%rax
ffffffff811ddd36:	mov    %edx,%esi
ffffffff811ddd38:	mov    %rdi,%rcx
ffffffff811ddd3b:	movzbl -0x7e08d3a0(%rax),%edx
ffffffff811ddd42:	mov    %rax,%rdi
ffffffff811ddd45:	cmp    $0xff,%dl
ffffffff811ddd48:	jne    ffffffff811ddd72 <__mod_memcg_lruvec_state+0x3f>
ffffffff811ddd4a:	cmpb   $0x0,0xd79610(%rip)        # ffffffff81f57361 <__already_done.24>
ffffffff811ddd51:	jne    ffffffff811dddc3 <__mod_memcg_lruvec_state+0x90>
ffffffff811ddd53:	mov    %eax,%edx
ffffffff811ddd55:	mov    $0xffffffff81830970,%rsi
ffffffff811ddd5c:	mov    $0xffffffff81a1306d,%rdi
ffffffff811ddd63:	movb   $0x1,0xd795f7(%rip)        # ffffffff81f57361 <__already_done.24>
ffffffff811ddd6a:	call   ffffffff81049b47 <__warn_printk>
ffffffff811ddd6f:	ud2
ffffffff811ddd71:	ret
ffffffff811ddd72:	mov    -0x40(%rcx),%r8
ffffffff811ddd76:	lea    0x18(,%rdx,8),%rdx
ffffffff811ddd7e:	movslq %esi,%rax
ffffffff811ddd81:	mov    0x538(%r8),%r9
ffffffff811ddd88:	add    %rdx,%r9
ffffffff811ddd8b:	add    %rax,%gs:(%r9)
ffffffff811ddd8f:	mov    -0x38(%rcx),%rcx
ffffffff811ddd93:	add    %rax,%gs:-0x18(%rcx,%rdx,1)
ffffffff811ddd99:	call   ffffffff811dd370 <memcg_page_state_unit>
ffffffff811ddd9e:	test   %esi,%esi
ffffffff811ddda0:	je     ffffffff811dddbb <__mod_memcg_lruvec_state+0x88>
ffffffff811ddda2:	cmp    $0x1000,%eax
ffffffff811ddda7:	je     ffffffff811dddbb <__mod_memcg_lruvec_state+0x88>
ffffffff811ddda9:	imul   %esi,%eax
ffffffff811dddac:	mov    $0x1,%esi
ffffffff811dddb1:	cltq
ffffffff811dddb3:	shr    $0xc,%rax
ffffffff811dddb7:	cmovne %rax,%rsi
ffffffff811dddbb:	mov    %r8,%rdi
ffffffff811dddbe:	jmp    ffffffff811ddcc4 <memcg_rstat_updated>
ffffffff811dddc3:	ret


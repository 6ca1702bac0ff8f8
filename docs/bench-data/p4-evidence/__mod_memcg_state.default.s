ffffffff811df8d3 <__mod_memcg_state>:
ffffffff811df8d3:	push   %r12
ffffffff811df8d5:	movslq %esi,%rax
ffffffff811df8d8:	push   %rbp
ffffffff811df8d9:	mov    %rax,%rbp
ffffffff811df8dc:	push   %rbx
ffffffff811df8dd:	mov    %edx,%ebx
ffffffff811df8df:	movzbl -0x7e08c620(%rax),%edx
ffffffff811df8e6:	call   ffffffff811ddac8 <mem_cgroup_disabled>
ffffffff811df8eb:	test   %al,%al
ffffffff811df8ed:	jne    ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df8f3:	cmp    $0xff,%dl
ffffffff811df8f6:	jne    ffffffff811df925 <__mod_memcg_state+0x52>
ffffffff811df8f8:	cmpb   $0x0,0xd78664(%rip)        # ffffffff81f57f63 <__already_done.26>
ffffffff811df8ff:	jne    ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df905:	mov    %ebp,%edx
ffffffff811df907:	mov    $0xffffffff818309b0,%rsi
ffffffff811df90e:	mov    $0xffffffff81a130d8,%rdi
ffffffff811df915:	movb   $0x1,0xd78647(%rip)        # ffffffff81f57f63 <__already_done.26>
ffffffff811df91c:	call   ffffffff81049b47 <__warn_printk>
ffffffff811df921:	ud2
ffffffff811df923:	jmp    ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df925:	mov    0x538(%rdi),%rax
ffffffff811df92c:	mov    %rdi,%r12
ffffffff811df92f:	mov    %ebp,%edi
ffffffff811df931:	movslq %ebx,%rcx
ffffffff811df934:	add    %rcx,%gs:0x18(%rax,%rdx,8)
ffffffff811df93a:	call   ffffffff811dd8ad <memcg_page_state_unit>
ffffffff811df93f:	test   %ebx,%ebx
ffffffff811df941:	je     ffffffff811df95f <__mod_memcg_state+0x8c>
ffffffff811df943:	cmp    $0x1000,%eax
ffffffff811df948:	je     ffffffff811df95f <__mod_memcg_state+0x8c>
ffffffff811df94a:	imul   %ebx,%eax
ffffffff811df94d:	movslq %eax,%rsi
ffffffff811df950:	mov    $0x1,%eax
ffffffff811df955:	shr    $0xc,%rsi
ffffffff811df959:	cmove  %rax,%rsi
ffffffff811df95d:	jmp    ffffffff811df961 <__mod_memcg_state+0x8e>
ffffffff811df95f:	mov    %ebx,%esi
ffffffff811df961:	mov    %r12,%rdi
ffffffff811df964:	call   ffffffff811de551 <memcg_rstat_updated>
ffffffff811df969:	mov    0xd80739(%rip),%eax        # ffffffff81f600a8 <__tracepoint_mod_memcg_state+0x8>
ffffffff811df96f:	test   %eax,%eax
ffffffff811df971:	jle    ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df973:	mov    %gs:0x7ee4c912(%rip),%eax        # 2c28c <pcpu_hot+0xc>
ffffffff811df97a:	bt     %rax,0xd91586(%rip)        # ffffffff81f70f08 <__cpu_online_mask>
ffffffff811df982:	jae    ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df984:	mov    0xd80755(%rip),%rax        # ffffffff81f600e0 <__tracepoint_mod_memcg_state+0x40>
ffffffff811df98b:	test   %rax,%rax
ffffffff811df98e:	je     ffffffff811df9a0 <__mod_memcg_state+0xcd>
ffffffff811df990:	mov    0x8(%rax),%rdi
ffffffff811df994:	mov    %ebx,%ecx
ffffffff811df996:	mov    %ebp,%edx
ffffffff811df998:	mov    %r12,%rsi
ffffffff811df99b:	call   ffffffff814fd0b8 <__SCT__tp_func_mod_memcg_state>
ffffffff811df9a0:	pop    %rbx
ffffffff811df9a1:	pop    %rbp
ffffffff811df9a2:	pop    %r12
ffffffff811df9a4:	ret

